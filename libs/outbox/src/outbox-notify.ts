import { poolQuery } from '@app/db';
import { DataSource } from 'typeorm';

/** The channel relays LISTEN on to wake up as soon as outbox rows are committed; their poll covers a lost one. */
export const OUTBOX_CHANNEL = 'hookrail_outbox';

/**
 * Whether a NOTIFY on the outbox channel concerns a relay loop that owns `owned`: its payload names lanes
 * comma-separated, or none (empty, or unreadable) for every lane. A loop that owns none of the lanes named has nothing
 * new to claim and sleeps on.
 */
export function notificationConcerns(payload: string | undefined, owned: readonly number[]): boolean {
  if (!payload) return true;
  const lanes = payload.split(',').map(Number);
  return !lanes.every(Number.isInteger) || owned.some((lane) => lanes.includes(lane));
}

/** One NOTIFY on the outbox channel, in a statement (and so a transaction) of its own; `lanes` '' names every lane. */
export async function notifyOutbox(dataSource: DataSource, lanes = ''): Promise<void> {
  await poolQuery(dataSource, `SELECT pg_notify($1, $2)`, [OUTBOX_CHANNEL, lanes]);
}

/**
 * Wakes the relays after outbox rows were committed, naming the lanes of those rows. The NOTIFY goes out after the
 * writer's commit, never inside its transaction: Postgres holds one database-wide lock from a notifying transaction's
 * commit until its WAL is flushed, so a NOTIFY in every inserting transaction serialises all of them
 * (docs/decisions/request-plane.md, "NOTIFY after the commit").
 *
 * Calls coalesce: one NOTIFY is in flight at a time, and any number of commits while it is in flight cause exactly
 * one more after it, naming every lane they wrote, so every commit is followed by a NOTIFY naming its lanes sent after
 * it. A failed NOTIFY is reported to `onError` and not retried: the relays find those rows at their next poll
 * (RELAY_POLL_INTERVAL_MS, at most 1 s).
 */
export class OutboxNotifier {
  private inFlight = false;
  /** The lanes committed since the last NOTIFY went out; 'all' once a commit did not say. */
  private lanes: Set<number> | 'all' = new Set();
  private due = false;

  constructor(
    /** Sends one NOTIFY whose payload names the lanes ('' for every lane); notifiers of other channels ignore it. */
    private readonly notify: (lanes: string) => Promise<unknown>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * Call after a transaction that inserted outbox rows has committed, with the lanes of its rows (absent: every lane).
   * A transaction that wrote no outbox row (`lanes` empty) sends nothing.
   */
  committed(lanes?: Iterable<number>): void {
    if (lanes === undefined) this.lanes = 'all';
    else {
      let wrote = false;
      for (const lane of lanes) {
        wrote = true;
        if (this.lanes !== 'all') this.lanes.add(lane);
      }
      if (!wrote) return;
    }
    this.due = true;
    if (this.inFlight) return;
    this.inFlight = true;
    void this.flush();
  }

  private async flush(): Promise<void> {
    while (this.due) {
      this.due = false;
      const lanes = this.lanes;
      this.lanes = new Set();
      try {
        await this.notify(lanes === 'all' ? '' : [...lanes].join(','));
      } catch (error) {
        this.onError(error);
      }
    }
    this.inFlight = false;
  }
}
