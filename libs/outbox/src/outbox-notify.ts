import { poolQuery } from '@app/db';
import { DataSource } from 'typeorm';

/** The channel relays LISTEN on to wake up as soon as outbox rows are committed; their poll covers a lost one. */
export const OUTBOX_CHANNEL = 'hookrail_outbox';

/** One NOTIFY on the outbox channel, in a statement (and so a transaction) of its own. */
export async function notifyOutbox(dataSource: DataSource): Promise<void> {
  await poolQuery(dataSource, `SELECT pg_notify($1, '')`, [OUTBOX_CHANNEL]);
}

/**
 * Wakes the relays after outbox rows were committed. The NOTIFY goes out after the writer's commit, never inside
 * its transaction: Postgres holds one database-wide lock from a notifying transaction's commit until its WAL is
 * flushed, so a NOTIFY in every inserting transaction serialises all of them (docs/decisions/request-plane.md,
 * "NOTIFY after the commit").
 *
 * Calls coalesce: one NOTIFY is in flight at a time, and any number of commits while it is in flight cause exactly
 * one more after it, so every commit is followed by a NOTIFY sent after it. A failed NOTIFY is reported to
 * `onError` and not retried: the relays find those rows at their next poll (RELAY_POLL_INTERVAL_MS, at most 1 s).
 */
export class OutboxNotifier {
  private inFlight = false;
  private again = false;

  constructor(
    private readonly notify: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Call after a transaction that inserted outbox rows has committed. */
  committed(): void {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    void this.flush();
  }

  private async flush(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.notify();
      } catch (error) {
        this.onError(error);
      }
    } while (this.again);
    this.inFlight = false;
  }
}
