import { Type } from '@nestjs/common';
import { AGENT_SERVICE } from './agent/agent.module';
import { ConsumersEnv } from './config/consumers.env';
import { LEDGER_SERVICE } from './ledger/ledger.module';
import { NOTIFIER_SERVICE } from './notifier/notifier.module';
import { WEBHOOKS_SERVICE } from './webhooks/webhooks.module';

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
  /** When set, the topics come from the configuration instead (e.g. the webhooks group's OUTBOUND_WEBHOOKS_TOPICS). */
  topicsFrom?: (config: ConsumersEnv) => readonly string[];
  module: Type<unknown>;
  owner: GroupOwner;
}

/** The services this app can run, by group name. A group listed in CONSUMER_GROUPS but absent here is skipped. */
export const CONSUMER_SERVICES: Readonly<Record<string, ConsumerService>> = {
  ledger: LEDGER_SERVICE,
  notifier: NOTIFIER_SERVICE,
  agent: AGENT_SERVICE,
  webhooks: WEBHOOKS_SERVICE,
};
