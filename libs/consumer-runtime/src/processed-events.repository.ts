import { preparedQuery } from '@app/db';
import { EntityManager } from 'typeorm';

/**
 * The dedupe rows one transaction inserted. `take(id)` is true once per id this transaction claimed: the caller
 * applies the effect; false means another delivery already applied it (or an earlier message of this batch did).
 */
export class ProcessedEventClaims {
  private constructor(private readonly fresh: Set<string>) {}

  /** One statement for the whole batch; the primary key, not a check-then-insert, decides. */
  static async claim(manager: EntityManager, group: string, eventIds: string[]): Promise<ProcessedEventClaims> {
    if (eventIds.length === 0) return new ProcessedEventClaims(new Set());
    const rows = await preparedQuery<{ event_id: string }>(
      manager,
      `INSERT INTO processed_events ("group", event_id)
       SELECT $1, id FROM unnest($2::varchar[]) AS id
       ON CONFLICT ("group", event_id) DO NOTHING
       RETURNING event_id`,
      [group, eventIds],
    );
    return new ProcessedEventClaims(new Set(rows.map((row) => row.event_id)));
  }

  take(eventId: string): boolean {
    return this.fresh.delete(eventId);
  }
}
