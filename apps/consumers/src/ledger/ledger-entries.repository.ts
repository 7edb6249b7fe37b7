import { preparedQuery } from '@app/db';
import { DataSource, EntityManager } from 'typeorm';
import { LedgerEntryKind } from './ledger-entry.entity';

export interface NewLedgerEntry {
  eventId: string;
  orderId: string;
  customerId: string;
  kind: LedgerEntryKind;
  /** Signed, minor units. */
  amount: number;
  currency: string;
}

/**
 * Inserts a batch of entries in one statement, in order, inside the consumer's transaction (`manager` is the one
 * holding the dedupe rows). Used as a BatchWriter: the runtime calls it once per transaction.
 */
export async function insertLedgerEntries(manager: EntityManager, entries: NewLedgerEntry[]): Promise<void> {
  await preparedQuery(
    manager,
    `INSERT INTO ledger_entries (event_id, order_id, customer_id, kind, amount, currency)
     SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[], $5::bigint[], $6::char(3)[])`,
    [
      entries.map((entry) => entry.eventId),
      entries.map((entry) => entry.orderId),
      entries.map((entry) => entry.customerId),
      entries.map((entry) => entry.kind),
      entries.map((entry) => entry.amount),
      entries.map((entry) => entry.currency),
    ],
  );
}

export interface LedgerBalance {
  customerId: string;
  currency: string;
  /** Minor units, as a string: a bigint sum can exceed Number.MAX_SAFE_INTEGER. */
  balance: string;
  entries: number;
}

/** What each customer owes per currency (negative: owed to the customer); one customer when `customerId` is given. */
export async function findLedgerBalances(
  manager: EntityManager | DataSource,
  customerId?: string,
): Promise<LedgerBalance[]> {
  const rows: Array<{ customer_id: string; currency: string; balance: string; entries: string }> = await manager.query(
    `SELECT customer_id, currency, SUM(amount)::text AS balance, COUNT(*)::text AS entries
       FROM ledger_entries
      WHERE $1::varchar IS NULL OR customer_id = $1
      GROUP BY customer_id, currency
      ORDER BY customer_id, currency`,
    [customerId ?? null],
  );
  return rows.map((row) => ({
    customerId: row.customer_id,
    currency: row.currency,
    balance: row.balance,
    entries: Number(row.entries),
  }));
}
