export type { ConsumerService, GroupOwner } from './consumer-service';
import type { ConsumerService } from './consumer-service';
import { AGENT_SERVICE } from './agent/agent.module';
import { ANALYTICS_SERVICE } from './analytics/analytics.module';
import { FULFILMENT_SERVICE } from './fulfilment/fulfilment.module';
import { INVENTORY_SERVICE } from './inventory/inventory.module';
import { LEDGER_SERVICE } from './ledger/ledger.module';
import { NOTIFIER_SERVICE } from './notifier/notifier.module';
import { PAYMENTS_SERVICE } from './payments/payments.module';
import { SHIPPING_SERVICE } from './shipping/shipping.module';
import { WEBHOOKS_SERVICE } from './webhooks/webhooks.module';

/** The services this app can run, by group name. A group listed in CONSUMER_GROUPS but absent here is skipped. */
export const CONSUMER_SERVICES: Readonly<Record<string, ConsumerService>> = {
  ledger: LEDGER_SERVICE,
  notifier: NOTIFIER_SERVICE,
  agent: AGENT_SERVICE,
  analytics: ANALYTICS_SERVICE,
  webhooks: WEBHOOKS_SERVICE,
  fulfilment: FULFILMENT_SERVICE,
  inventory: INVENTORY_SERVICE,
  payments: PAYMENTS_SERVICE,
  shipping: SHIPPING_SERVICE,
};
