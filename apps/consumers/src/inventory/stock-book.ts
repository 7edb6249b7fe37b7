import { StockLineV1 } from '@app/contracts';
import { ReservationStatus } from './stock-reservation.entity';

/** A saga's reservation as the book holds it. */
export interface Reservation {
  sagaId: string;
  orderId: string;
  status: ReservationStatus;
  /** The lines taken from stock (kept when released, so the row says what was given back); `[]` when refused. */
  lines: StockLineV1[];
  reason: string | null;
}

/** What a reserve command comes to: the reply it gets. */
export type ReserveOutcome = { reserved: true } | { reserved: false; reason: string };

/** What a transaction's commands changed: the rows to write before it commits. */
export interface StockChanges {
  /** Reservations of sagas that had none when the book was opened. */
  added: Reservation[];
  /** Reservations that existed (and were locked) when the book was opened, as they stand now. */
  changed: Reservation[];
  /** Units on hand of each SKU whose count changed. */
  stock: Map<string, number>;
}

/**
 * The inventory of one consumer transaction, in memory: the reservations of its batch's sagas and the units of every
 * SKU its commands touch, read under row locks when it was opened, so nothing else changes them before the commit.
 * Each command is applied here in turn, exactly as the statements it replaces would have been, and the transaction
 * writes what changed in a few statements (`changes`) instead of several round trips per command.
 */
export class StockBook {
  private readonly added = new Set<string>();
  private readonly changed = new Set<string>();
  private readonly moved = new Set<string>();

  constructor(
    /** The reservations that exist, by saga id. */
    private readonly reservations: Map<string, Reservation>,
    /** Units on hand by SKU, for every SKU the batch's commands may touch (0 for a SKU without a row). */
    private readonly available: Map<string, number>,
  ) {}

  /**
   * Reserves all the lines or none, once per saga: a saga with a reservation already (or released first) is answered
   * from it; lines without enough units refuse the reservation, naming each short SKU.
   */
  reserve(sagaId: string, orderId: string, lines: StockLineV1[]): ReserveOutcome {
    const existing = this.reservations.get(sagaId);
    if (existing)
      return existing.status === 'reserved'
        ? { reserved: true }
        : { reserved: false, reason: existing.reason ?? existing.status };
    const short = lines.filter((line) => this.unitsOf(line.sku) < line.quantity);
    if (short.length > 0) {
      const reason = `out of stock: ${short
        .map((line) => `${line.sku} (${line.quantity} wanted, ${this.unitsOf(line.sku)} available)`)
        .join(', ')}`;
      this.put({ sagaId, orderId, status: 'refused', lines: [], reason });
      return { reserved: false, reason };
    }
    for (const line of lines) this.move(line.sku, -line.quantity);
    this.put({ sagaId, orderId, status: 'reserved', lines, reason: null });
    return { reserved: true };
  }

  /**
   * Gives a `reserved` reservation's units back, once. Releasing what was never reserved records a `released`
   * reservation, so that a reserve arriving later is refused; releasing again changes nothing.
   */
  release(sagaId: string, orderId: string): void {
    const existing = this.reservations.get(sagaId);
    if (!existing) {
      this.put({ sagaId, orderId, status: 'released', lines: [], reason: 'released before it was reserved' });
      return;
    }
    if (existing.status !== 'reserved') return;
    for (const line of existing.lines) this.move(line.sku, line.quantity);
    this.put({ ...existing, status: 'released' });
  }

  changes(): StockChanges {
    const rows = (ids: Set<string>) => [...ids].map((id) => this.reservations.get(id)!);
    return {
      added: rows(this.added),
      changed: rows(this.changed),
      stock: new Map([...this.moved].map((sku) => [sku, this.unitsOf(sku)])),
    };
  }

  private put(reservation: Reservation): void {
    const { sagaId } = reservation;
    if (!this.reservations.has(sagaId)) this.added.add(sagaId);
    else if (!this.added.has(sagaId)) this.changed.add(sagaId);
    this.reservations.set(sagaId, reservation);
  }

  private move(sku: string, units: number): void {
    this.available.set(sku, this.unitsOf(sku) + units);
    this.moved.add(sku);
  }

  private unitsOf(sku: string): number {
    const units = this.available.get(sku);
    if (units === undefined) throw new Error(`SKU ${sku} was not locked when this transaction’s stock was read`);
    return units;
  }
}
