import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { insertLedgerEntries } from './ledger-entries.repository';
import { LedgerEntryKind } from './ledger-entry.entity';

const SIGN: Record<LedgerEntryKind, 1 | -1> = { receivable: 1, payment: -1, reversal: -1 };

/** One order event → one ledger entry, queued on the consumer's transaction (one insert per batch). */
@Injectable()
export class RecordLedgerEntryUseCase {
  execute(ctx: ConsumerContext, kind: LedgerEntryKind, event: CloudEvent<OrderFieldsV1>): void {
    const order = event.data;
    ctx.write(insertLedgerEntries, {
      eventId: event.id,
      orderId: order.orderId,
      customerId: order.customer.id,
      kind,
      amount: SIGN[kind] * order.amount,
      currency: order.currency,
    });
  }
}
