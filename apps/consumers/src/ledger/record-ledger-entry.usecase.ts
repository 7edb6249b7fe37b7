import { ConsumerContext, PermanentError } from '@app/consumer-runtime';
import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { insertLedgerEntries } from './ledger-entries.repository';
import { LedgerEntryKind } from './ledger-entry.entity';

const SIGN: Record<LedgerEntryKind, 1 | -1> = { receivable: 1, payment: -1, reversal: -1 };

/** The currencies the ledger keeps accounts in (LEDGER_CURRENCIES); none listed: every currency. */
export class LedgerCurrencies {
  private readonly kept: Set<string>;

  constructor(currencies: readonly string[]) {
    this.kept = new Set(currencies);
  }

  keeps(currency: string): boolean {
    return this.kept.size === 0 || this.kept.has(currency);
  }
}

/** An order in a currency the ledger keeps no account in: no retry helps until the account exists. */
export class NoLedgerAccountError extends PermanentError {
  override name = 'NoLedgerAccountError';
}

/** One order event → one ledger entry, queued on the consumer's transaction (one insert per batch). */
@Injectable()
export class RecordLedgerEntryUseCase {
  constructor(private readonly currencies: LedgerCurrencies) {}

  execute(ctx: ConsumerContext, kind: LedgerEntryKind, event: CloudEvent<OrderFieldsV1>): void {
    const order = event.data;
    if (!this.currencies.keeps(order.currency))
      throw new NoLedgerAccountError(`the ledger keeps no account in ${order.currency} (order ${order.orderId})`);
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
