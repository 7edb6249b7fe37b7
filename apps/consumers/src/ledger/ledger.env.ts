import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';

/** The ledger's configuration (group `ledger`). */
export class LedgerEnv {
  /**
   * The currencies the ledger keeps accounts in, e.g. `EUR,USD`; an order in another one is rejected (a permanent
   * error, `NoLedgerAccountError`: dead-lettered, and its order's later events parked behind it); add the currency,
   * restart, replay. Empty: every currency.
   */
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((currency) => currency.trim().toUpperCase())
          .filter(Boolean)
      : value,
  )
  @Matches(/^[A-Z]{3}$/, { each: true, message: 'must list ISO 4217 codes such as EUR,USD' })
  LEDGER_CURRENCIES: string[] = [];
}
