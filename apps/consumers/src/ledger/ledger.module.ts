import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { LedgerController } from './ledger.controller';
import { RecordLedgerEntryUseCase } from './record-ledger-entry.usecase';

/** The ledger service: consumer group `ledger`, one ledger entry per shop order event. */
@Module({ controllers: [LedgerController], providers: [RecordLedgerEntryUseCase] })
export class LedgerModule {}

export const LEDGER_SERVICE = {
  group: 'ledger',
  topics: [TOPICS.shopOrders],
  module: LedgerModule,
  owner: { team: 'finance', contact: 'finance@example.com' },
} as const;
