import { StockLineV1 } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { ReservationStatus } from './stock-reservation.entity';

const skus = (lines: StockLineV1[]) => lines.map((line) => line.sku);
const quantities = (lines: StockLineV1[]) => lines.map((line) => line.quantity);

/**
 * The inventory participant's statements, all in the consumer's transaction (the one holding the command's dedupe
 * row): a reservation, its stock change and the reply commit together.
 */
export const StockRepository = {
  /** The saga's reservation, locked (a replay on `inventory.replay` may race the command). */
  async findReservation(
    manager: EntityManager,
    sagaId: string,
  ): Promise<{ status: ReservationStatus; reason: string | null } | undefined> {
    const rows = await manager.query(`SELECT status, reason FROM stock_reservations WHERE saga_id = $1 FOR UPDATE`, [
      sagaId,
    ]);
    return rows[0];
  },

  /** SKUs without a row start with `units` (INVENTORY_INITIAL_STOCK). */
  async addMissingSkus(manager: EntityManager, lines: StockLineV1[], units: number): Promise<void> {
    await manager.query(
      `INSERT INTO stock (sku, available) SELECT unnest($1::varchar[]), $2 ON CONFLICT (sku) DO NOTHING`,
      [skus(lines), units],
    );
  },

  /** Units available per SKU, the rows locked in SKU order (so that two reservations never lock crosswise). */
  async lockAvailable(manager: EntityManager, lines: StockLineV1[]): Promise<Map<string, number>> {
    const rows: Array<{ sku: string; available: number }> = await manager.query(
      `SELECT sku, available FROM stock WHERE sku = ANY($1::varchar[]) ORDER BY sku FOR UPDATE`,
      [skus(lines)],
    );
    return new Map(rows.map((row) => [row.sku, row.available]));
  },

  /** Takes (`sign` −1) or puts back (+1) the lines' units. */
  async change(manager: EntityManager, lines: StockLineV1[], sign: 1 | -1): Promise<void> {
    await manager.query(
      `UPDATE stock s SET available = s.available + $3 * w.quantity, updated_at = now()
         FROM unnest($1::varchar[], $2::int[]) AS w(sku, quantity)
        WHERE s.sku = w.sku`,
      [skus(lines), quantities(lines), sign],
    );
  },

  async insertReservation(
    manager: EntityManager,
    reservation: { sagaId: string; orderId: string; status: ReservationStatus; lines: StockLineV1[]; reason?: string },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO stock_reservations (saga_id, order_id, status, lines, reason) VALUES ($1, $2, $3, $4, $5)`,
      [
        reservation.sagaId,
        reservation.orderId,
        reservation.status,
        JSON.stringify(reservation.lines),
        reservation.reason ?? null,
      ],
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
