import { Type } from '@nestjs/common';
import { AGENT_SERVICE } from './agent/agent.module';
import { FULFILMENT_SERVICE } from './fulfilment/fulfilment.module';
import { INVENTORY_SERVICE } from './inventory/inventory.module';
import { LEDGER_SERVICE } from './ledger/ledger.module';
import { NOTIFIER_SERVICE } from './notifier/notifier.module';
import { PAYMENTS_SERVICE } from './payments/payments.module';
import { SHIPPING_SERVICE } from './shipping/shipping.module';

/** The team that answers for a group's dead letters and alerts. */
export interface GroupOwner {
  team: string;
  /** Where to reach them: an address, a channel, a rota. */
  contact: string;
}

/** A consumer service: its group name, the topics it consumes, the Nest module holding its handlers, its owner. */
export interface ConsumerService {
  group: string;
  topics: readonly string[];
  module: Type<unknown>;
  owner: GroupOwner;
  /**
   * Most events per transaction for this group, below CONSUMER_BATCH_SIZE: a group whose handlers call a provider
   * and reply through the outbox publishes its replies only when the transaction commits, so a long batch only
   * delays them.
   */
  maxBatchSize?: number;
}

/** The services this app can run, by group name. A group listed in CONSUMER_GROUPS but absent here is skipped. */
export const CONSUMER_SERVICES: Readonly<Record<string, ConsumerService>> = {
  ledger: LEDGER_SERVICE,
  notifier: NOTIFIER_SERVICE,
  agent: AGENT_SERVICE,
  fulfilment: FULFILMENT_SERVICE,
  inventory: INVENTORY_SERVICE,
  payments: PAYMENTS_SERVICE,
  shipping: SHIPPING_SERVICE,
};
