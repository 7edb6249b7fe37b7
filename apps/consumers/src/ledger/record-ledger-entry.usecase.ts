import { ConsumerContext, PermanentError } from '@app/consumer-runtime';
import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { insertLedgerEntries } from './ledger-entries.repository';
import { LedgerEntryKind } from './ledger-entry.entity';

const SIGN: Record<LedgerEntryKind, 1 | -1> = { receivable: 1, payment: -1, reversal: -1 };

/** A business rule: the ledger keeps no books in this currency (`LEDGER_CURRENCIES`). Dead-lettered at once. */
export class CurrencyNotKeptError extends PermanentError {
  override name = 'CurrencyNotKeptError';
  constructor(currency: string, kept: readonly string[]) {
    super(`the ledger keeps no books in ${currency} (it keeps ${kept.join(', ')})`);
  }
}

/** One order event → one ledger entry, queued on the consumer's transaction (one insert per batch). */
@Injectable()
export class RecordLedgerEntryUseCase {
  private readonly currencies: readonly string[];

  constructor(deps: ConsumerServiceDeps) {
    this.currencies = deps.config.LEDGER_CURRENCIES;
  }

  execute(ctx: ConsumerContext, kind: LedgerEntryKind, event: CloudEvent<OrderFieldsV1>): void {
    const order = event.data;
    if (this.currencies.length > 0 && !this.currencies.includes(order.currency))
      throw new CurrencyNotKeptError(order.currency, this.currencies);
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
