import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { LedgerController } from './ledger.controller';
import { LedgerCurrencies, RecordLedgerEntryUseCase } from './record-ledger-entry.usecase';
import { LedgerEnv } from './ledger.env';
import { LedgerEntryEntity } from './ledger-entry.entity';

/** The ledger service: consumer group `ledger`, one ledger entry per shop order event. */
@Module({
  controllers: [LedgerController],
  providers: [
    RecordLedgerEntryUseCase,
    {
      provide: LedgerCurrencies,
      inject: [ConsumerServiceDeps],
      useFactory: ({ config }: ConsumerServiceDeps<LedgerEnv>) => new LedgerCurrencies(config.LEDGER_CURRENCIES),
    },
  ],
})
export class LedgerModule {}

/** An order's entries only add up in the order they happened: a dead-lettered event parks its order's later ones. */
export const LEDGER_SERVICE = {
  group: 'ledger',
  topics: [TOPICS.shopOrders],
  module: LedgerModule,
  env: LedgerEnv,
  entities: [LedgerEntryEntity],
  owner: { team: 'finance', contact: 'finance@example.com' },
  keyOrder: 'park',
} as const;
