import { DataSource, EntityManager } from 'typeorm';

export interface AgentTaskTrailRow {
  state: string;
  attempts: number;
  claimed_by: string | null;
  last_error_class: string | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  source_topic: string;
  source_partition: number;
  source_offset: string;
  replay_count: number;
  dead_lettered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An event's agent task as its trail tells it: where it was consumed, its state now, its dead letter. */
export async function findAgentTaskTrail(
  db: DataSource | EntityManager,
  eventId: string,
): Promise<AgentTaskTrailRow | undefined> {
  const rows: AgentTaskTrailRow[] = await db.query(
    `SELECT state, attempts, claimed_by, last_error_class, last_error, NULLIF(next_attempt_at, 'infinity') AS next_attempt_at,
            source_topic, source_partition, source_offset, replay_count, dead_lettered_at, created_at, updated_at
       FROM agent_tasks WHERE event_id = $1`,
    [eventId],
  );
  return rows[0];
}
