import { Type } from '@nestjs/common';
import { LEDGER_SERVICE } from './ledger/ledger.module';

/** A consumer service: its group name, the topics it consumes, and the Nest module holding its handlers. */
export interface ConsumerService {
  group: string;
  topics: readonly string[];
  module: Type<unknown>;
}

/** The services this app can run, by group name. A group listed in CONSUMER_GROUPS but absent here is skipped. */
export const CONSUMER_SERVICES: Readonly<Record<string, ConsumerService>> = {
  ledger: LEDGER_SERVICE,
};
