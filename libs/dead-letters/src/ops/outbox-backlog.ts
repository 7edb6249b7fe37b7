import { DataSource, EntityManager } from 'typeorm';

export interface OutboxBacklog {
  /** Rows not yet published. */
  unpublished: number;
  /** Of those, rows the broker rejected for good, waiting for an operator. */
  parked: number;
  /** Age of the oldest unpublished row in seconds (0 when there is none). */
  oldestAgeSeconds: number;
  byTopic: Array<{ topic: string; unpublished: number; oldestAgeSeconds: number }>;
}

/** The outbox rows the relay has not published yet, per topic; read-only (the relay owns the table's state). */
export async function findOutboxBacklog(db: DataSource | EntityManager): Promise<OutboxBacklog> {
  const rows: Array<{ topic: string; n: number; parked: number; age: number }> = await db.query(
    `SELECT topic, count(*)::int AS n, count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS parked,
            COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS age
       FROM outbox WHERE published_at IS NULL GROUP BY topic ORDER BY n DESC, topic`,
  );
  return {
    unpublished: rows.reduce((sum, row) => sum + row.n, 0),
    parked: rows.reduce((sum, row) => sum + row.parked, 0),
    oldestAgeSeconds: Math.round(Math.max(0, ...rows.map((row) => row.age))),
    byTopic: rows.map((row) => ({ topic: row.topic, unpublished: row.n, oldestAgeSeconds: Math.round(row.age) })),
  };
}
