import { poolQuery, preparedQuery } from '@app/db';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The dedupe rows one transaction inserted. `take(id)` is true once per id this transaction claimed: the caller
 * applies the effect; false means another delivery already applied it (or an earlier message of this batch did).
 */
export class ProcessedEventClaims {
  private constructor(
    private readonly group: string,
    private readonly fresh: Set<string>,
  ) {}

  /**
   * One statement for the whole batch; the primary key, not a check-then-insert, decides. `processed_at` is the
   * moment each row is claimed (clock_timestamp), not the transaction's start: a batch that waited on another
   * process's row of the same key (a consumer that lost its partitions while applying) records its next event after
   * that one, as it applied it.
   */
  static async claim(manager: EntityManager, group: string, eventIds: string[]): Promise<ProcessedEventClaims> {
    if (eventIds.length === 0) return new ProcessedEventClaims(group, new Set());
    const rows = await preparedQuery<{ event_id: string }>(
      manager,
      `INSERT INTO processed_events ("group", event_id, processed_at)
       SELECT $1, id, clock_timestamp() FROM unnest($2::varchar[]) AS id
       ON CONFLICT ("group", event_id) DO NOTHING
       RETURNING event_id`,
      [group, eventIds],
    );
    return new ProcessedEventClaims(group, new Set(rows.map((row) => row.event_id)));
  }

  /**
   * The events among these that the group applied already (no lock, no claim): a hint that lets a handler that calls
   * a provider skip a redelivered event; the claim in the effect's transaction still decides.
   */
  static async appliedAmong(db: DataSource, group: string, eventIds: string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows = await poolQuery<{ event_id: string }>(
      db,
      `SELECT event_id FROM processed_events WHERE "group" = $1 AND event_id = ANY($2::varchar[])`,
      [group, eventIds],
    );
    return new Set(rows.map((row) => row.event_id));
  }

  take(eventId: string): boolean {
    return this.fresh.delete(eventId);
  }

  /** Whether `take(eventId)` would be true, without taking it: the event is not applied yet. */
  isFresh(eventId: string): boolean {
    return this.fresh.has(eventId);
  }

  /** A claim taken and not used after all (the effect is not in this transaction): released with the unused ones. */
  giveBack(eventId: string): void {
    this.fresh.add(eventId);
  }

  /** In the same transaction: deletes the rows claimed but never taken (the run stopped before their events). */
  async releaseUnused(manager: EntityManager): Promise<void> {
    if (this.fresh.size === 0) return;
    await forgetProcessedEvents(manager, this.group, [...this.fresh]);
    this.fresh.clear();
  }
}

/**
 * Deletes the group's dedupe rows of these events, so that a later delivery of them is applied again: a claim that
 * was never used, or an event whose effect turned out to have failed after its row committed (the agent's dead task,
 * in the transaction that marks it dead).
 */
export async function forgetProcessedEvents(
  db: EntityManager | DataSource,
  group: string,
  eventIds: string[],
): Promise<void> {
  await db.query(`DELETE FROM processed_events WHERE "group" = $1 AND event_id = ANY($2::varchar[])`, [
    group,
    eventIds,
  ]);
}

/**
 * Retention: deletes up to `limit` dedupe rows older than `retentionSeconds` (one short statement, few row locks);
 * returns how many.
 */
export async function deleteProcessedEventsOlderThan(
  manager: EntityManager,
  retentionSeconds: number,
  limit: number,
): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
    `WITH doomed AS (
       SELECT "group", event_id FROM processed_events WHERE processed_at < now() - make_interval(secs => $1) LIMIT $2
     ), gone AS (
       DELETE FROM processed_events t USING doomed d WHERE t."group" = d."group" AND t.event_id = d.event_id RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [retentionSeconds, limit],
  );
  return deleted;
}

/** Events each group applied (its effect committed) in [from, to): the console's chart. */
export async function countAppliedByGroup(
  db: EntityManager | DataSource,
  from: Date,
  to: Date,
): Promise<Array<{ group: string; count: number }>> {
  return db.query(
    `SELECT "group", count(*)::int AS count FROM processed_events
      WHERE processed_at >= $1 AND processed_at < $2 GROUP BY "group"`,
    [from, to],
  );
}
