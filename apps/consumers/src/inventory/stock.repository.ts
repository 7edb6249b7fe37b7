import { preparedQuery } from '@app/db';
import { EntityManager } from 'typeorm';
import { Reservation, StockChanges } from './stock-book';

/**
 * The inventory participant's statements, all in the consumer's transaction (the one holding the commands' dedupe
 * rows): the batch's reservations and stock rows are locked and read first, the commands applied to them in memory
 * (StockBook), and what changed written before the commit, with the replies. A hot SKU's row stays locked until that
 * transaction commits; every transaction locks in the same order (reservations by saga id, then stock by SKU), so two
 * of them wait for each other instead of deadlocking.
 */
export const StockRepository = {
  /** These sagas' reservations, locked until the transaction ends, in saga id order. */
  async lockReservations(manager: EntityManager, sagaIds: string[]): Promise<Reservation[]> {
    return preparedQuery<Reservation>(
      manager,
      `SELECT saga_id AS "sagaId", order_id AS "orderId", status, lines, reason
         FROM stock_reservations WHERE saga_id = ANY($1::uuid[]) ORDER BY saga_id FOR UPDATE`,
      [sagaIds],
    );
  },

  /**
   * SKUs without a row start with `units` (INVENTORY_INITIAL_STOCK), inserted in SKU order like `lockInOrder` locks
   * them, so that two transactions adding the same new SKUs wait for each other rather than deadlock.
   */
  async addMissingSkus(manager: EntityManager, skus: string[], units: number): Promise<void> {
    await preparedQuery(
      manager,
      `INSERT INTO stock (sku, available)
       SELECT sku, $2 FROM unnest($1::varchar[]) AS sku ORDER BY sku COLLATE "C"
       ON CONFLICT (sku) DO NOTHING`,
      [skus, units],
    );
  },

  /**
   * Locks these SKUs' rows until the transaction ends, in SKU order (the lock is taken row by row in the sorted
   * output), so that transactions locking overlapping sets cannot deadlock. Returns their units on hand; a SKU
   * without a row has none.
   */
  async lockInOrder(manager: EntityManager, skus: string[]): Promise<Map<string, number>> {
    const rows = await preparedQuery<{ sku: string; available: number }>(
      manager,
      `SELECT sku, available FROM stock WHERE sku = ANY($1::varchar[]) ORDER BY sku COLLATE "C" FOR UPDATE`,
      [skus],
    );
    const available = new Map(skus.map((sku) => [sku, 0]));
    for (const row of rows) available.set(row.sku, row.available);
    return available;
  },

  /**
   * Writes what a transaction's commands changed: new reservations (a saga that got one meanwhile from another
   * transaction fails this one, to be retried on what is there now), the locked ones as they stand, and the units
   * on hand of each SKU moved.
   */
  async write(manager: EntityManager, { added, changed, stock }: StockChanges): Promise<void> {
    const columns = (rows: Reservation[]) => [
      rows.map((row) => row.sagaId),
      rows.map((row) => row.orderId),
      rows.map((row) => row.status),
      rows.map((row) => JSON.stringify(row.lines)),
      rows.map((row) => row.reason),
    ];
    if (added.length > 0) {
      const inserted = await preparedQuery(
        manager,
        `INSERT INTO stock_reservations (saga_id, order_id, status, lines, reason)
         SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::jsonb[], $5::text[])
         ON CONFLICT (saga_id) DO NOTHING RETURNING saga_id`,
        columns(added),
      );
      if (inserted.length < added.length)
        throw new Error(
          `${added.length - inserted.length} of ${added.length} sagas got a reservation from another transaction ` +
            'meanwhile; retrying on what is there now',
        );
    }
    if (changed.length > 0)
      await preparedQuery(
        manager,
        `UPDATE stock_reservations r
            SET status = c.status, lines = c.lines, reason = c.reason, updated_at = now()
           FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::jsonb[], $5::text[])
                AS c(saga_id, order_id, status, lines, reason)
          WHERE r.saga_id = c.saga_id`,
        columns(changed),
      );
    if (stock.size > 0)
      await preparedQuery(
        manager,
        `UPDATE stock s SET available = w.available, updated_at = now()
           FROM unnest($1::varchar[], $2::int[]) AS w(sku, available)
          WHERE s.sku = w.sku`,
        [[...stock.keys()], [...stock.values()]],
      );
  },
};
