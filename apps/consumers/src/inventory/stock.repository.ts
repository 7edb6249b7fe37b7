import { StockLineV1 } from '@app/contracts';
import { preparedQuery } from '@app/db';
import { EntityManager } from 'typeorm';
import { ReservationStatus } from './stock-reservation.entity';

const skus = (lines: StockLineV1[]) => lines.map((line) => line.sku);
const quantities = (lines: StockLineV1[]) => lines.map((line) => line.quantity);

/**
 * The inventory participant's statements, all in the consumer's transaction (the one holding the command's dedupe
 * row): a reservation, its stock change and the reply commit together. A hot SKU's row stays locked until that
 * transaction commits; the transaction locks every row its commands touch first, in SKU order (`lockInOrder`), so
 * each command then takes its units without waiting.
 */
export const StockRepository = {
  /**
   * One statement: the saga's reservation, `reserved` with these lines, unless it has one already (`claimed` false
   * then, nothing taken); and, when claimed, each line's units taken where there are enough. `taken` lists the lines
   * taken: all of them, or the caller puts them back and refuses the reservation.
   */
  async reserve(
    manager: EntityManager,
    reservation: { sagaId: string; orderId: string; lines: StockLineV1[] },
  ): Promise<{ claimed: boolean; taken: StockLineV1[] }> {
    const [row] = await preparedQuery<{ claimed: boolean; taken: StockLineV1[] | null }>(
      manager,
      `WITH claim AS (
         INSERT INTO stock_reservations (saga_id, order_id, status, lines) VALUES ($1, $2, 'reserved', $3)
         ON CONFLICT (saga_id) DO NOTHING RETURNING saga_id
       ), taken AS (
         UPDATE stock s SET available = s.available - w.quantity, updated_at = now()
           FROM unnest($4::varchar[], $5::int[]) AS w(sku, quantity), claim
          WHERE s.sku = w.sku AND s.available >= w.quantity
          RETURNING s.sku, w.quantity
       )
       SELECT EXISTS (SELECT 1 FROM claim) AS claimed,
              (SELECT json_agg(json_build_object('sku', sku, 'quantity', quantity)) FROM taken) AS taken`,
      [
        reservation.sagaId,
        reservation.orderId,
        JSON.stringify(reservation.lines),
        skus(reservation.lines),
        quantities(reservation.lines),
      ],
    );
    return { claimed: row.claimed, taken: row.taken ?? [] };
  },

  async findReservation(
    manager: EntityManager,
    sagaId: string,
  ): Promise<{ status: ReservationStatus; reason: string | null }> {
    const rows = await manager.query(`SELECT status, reason FROM stock_reservations WHERE saga_id = $1`, [sagaId]);
    return rows[0];
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
   * output), so that transactions locking overlapping sets cannot deadlock.
   */
  async lockInOrder(manager: EntityManager, skus: string[]): Promise<void> {
    await preparedQuery(
      manager,
      `SELECT sku FROM stock WHERE sku = ANY($1::varchar[]) ORDER BY sku COLLATE "C" FOR UPDATE`,
      [skus],
    );
  },

  /** The SKUs these sagas' reservations hold (`reserved`): what releasing them puts back. */
  async reservedSkus(manager: EntityManager, sagaIds: string[]): Promise<string[]> {
    const rows = await preparedQuery<{ sku: string }>(
      manager,
      `SELECT DISTINCT line->>'sku' AS sku
         FROM stock_reservations, jsonb_array_elements(lines) AS line
        WHERE saga_id = ANY($1::uuid[]) AND status = 'reserved'`,
      [sagaIds],
    );
    return rows.map((row) => row.sku);
  },

  /** Puts the lines' units back. */
  async putBack(manager: EntityManager, lines: StockLineV1[]): Promise<void> {
    await manager.query(
      `UPDATE stock s SET available = s.available + w.quantity, updated_at = now()
         FROM unnest($1::varchar[], $2::int[]) AS w(sku, quantity)
        WHERE s.sku = w.sku`,
      [skus(lines), quantities(lines)],
    );
  },

  async available(manager: EntityManager, lines: StockLineV1[]): Promise<Map<string, number>> {
    const rows: Array<{ sku: string; available: number }> = await manager.query(
      `SELECT sku, available FROM stock WHERE sku = ANY($1::varchar[])`,
      [skus(lines)],
    );
    return new Map(rows.map((row) => [row.sku, row.available]));
  },

  /** The claimed reservation could not be filled: `refused`, nothing taken. */
  async refuse(manager: EntityManager, sagaId: string, reason: string): Promise<void> {
    await manager.query(
      `UPDATE stock_reservations SET status = 'refused', lines = '[]', reason = $2, updated_at = now()
        WHERE saga_id = $1`,
      [sagaId, reason],
    );
  },

  /**
   * Releases the saga's reservation: `reserved` → `released`, returning the lines to put back; with no reservation
   * a `released` row is inserted, so that a reserve arriving later is refused. Nothing to put back otherwise.
   */
  async release(manager: EntityManager, sagaId: string, orderId: string): Promise<StockLineV1[]> {
    const rows: Array<{ lines: StockLineV1[]; inserted: boolean }> = await manager.query(
      `INSERT INTO stock_reservations (saga_id, order_id, status, lines, reason)
       VALUES ($1, $2, 'released', '[]', 'released before it was reserved')
       ON CONFLICT (saga_id) DO UPDATE SET status = 'released', updated_at = now()
         WHERE stock_reservations.status = 'reserved'
       RETURNING lines, (xmax = 0) AS inserted`,
      [sagaId, orderId],
    );
    return rows[0] && !rows[0].inserted ? rows[0].lines : [];
  },
};
