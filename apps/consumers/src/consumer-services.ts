import { Type } from '@nestjs/common';
import { AGENT_SERVICE } from './agent/agent.module';
import { LEDGER_SERVICE } from './ledger/ledger.module';
import { NOTIFIER_SERVICE } from './notifier/notifier.module';

/** A consumer service: its group name, the topics it consumes, and the Nest module holding its handlers. */
export interface ConsumerService {
  group: string;
  topics: readonly string[];
  module: Type<unknown>;
}

/** The services this app can run, by group name. A group listed in CONSUMER_GROUPS but absent here is skipped. */
export const CONSUMER_SERVICES: Readonly<Record<string, ConsumerService>> = {
  ledger: LEDGER_SERVICE,
  notifier: NOTIFIER_SERVICE,
  agent: AGENT_SERVICE,
};
