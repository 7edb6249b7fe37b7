import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { insertLedgerEntry } from './ledger-entries.repository';
import { LedgerEntryKind } from './ledger-entry.entity';

const SIGN: Record<LedgerEntryKind, 1 | -1> = { receivable: 1, payment: -1, reversal: -1 };

/** One order event → one ledger entry, written through the consumer's transaction. */
@Injectable()
export class RecordLedgerEntryUseCase {
  async execute(manager: EntityManager, kind: LedgerEntryKind, event: CloudEvent<OrderFieldsV1>): Promise<void> {
    const order = event.data;
    await insertLedgerEntry(manager, {
      eventId: event.id,
      orderId: order.orderId,
      customerId: order.customer.id,
      kind,
      amount: SIGN[kind] * order.amount,
      currency: order.currency,
    });
  }
}
