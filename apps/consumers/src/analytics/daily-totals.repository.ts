import { preparedQuery } from '@app/db';
import { DataSource, EntityManager } from 'typeorm';

export interface DailyCount {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  eventType: string;
}

/**
 * Adds a batch of events to their days' totals in one statement, inside the consumer's transaction (the one holding
 * the dedupe rows, so a redelivered event is never counted twice). Used as a BatchWriter.
 */
export async function addToDailyTotals(manager: EntityManager, counts: DailyCount[]): Promise<void> {
  // One row per (day, type): an upsert may not touch the same row twice in one statement.
  const sums = new Map<string, { day: string; eventType: string; events: number }>();
  for (const { day, eventType } of counts) {
    const key = `${day} ${eventType}`;
    const sum = sums.get(key) ?? sums.set(key, { day, eventType, events: 0 }).get(key)!;
    sum.events += 1;
  }
  const rows = [...sums.values()];
  await preparedQuery(
    manager,
    `INSERT INTO analytics_daily_totals AS t (day, event_type, events)
     SELECT * FROM unnest($1::date[], $2::varchar[], $3::bigint[])
     ON CONFLICT (day, event_type) DO UPDATE SET events = t.events + EXCLUDED.events, updated_at = now()`,
    [rows.map((row) => row.day), rows.map((row) => row.eventType), rows.map((row) => row.events)],
  );
}

export interface DailyTotal {
  day: string;
  eventType: string;
  events: number;
}

/** Totals per day and type, newest day first. */
export async function findDailyTotals(manager: EntityManager | DataSource): Promise<DailyTotal[]> {
  const rows: Array<{ day: string; event_type: string; events: string }> = await manager.query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, event_type, events::text AS events
       FROM analytics_daily_totals
      ORDER BY day DESC, event_type`,
  );
  return rows.map((row) => ({ day: row.day, eventType: row.event_type, events: Number(row.events) }));
}
