import { DataSource, EntityManager } from 'typeorm';
import { AgentTaskState } from './entities/agent-task.entity';

/** The whole agent task of one event, as the agent's tests inspect it (the status API reads its own few columns). */
export interface AgentTaskStatus {
  eventId: string;
  state: AgentTaskState;
  attempts: number;
  /** The worker holding the task (while `claimed`) or the last one that did. */
  claimedBy: string | null;
  leaseUntil: Date | null;
  /** When a worker may claim it next: the backoff's end when `failed`, the lease's end when `claimed`; null once final. */
  nextAttemptAt: Date | null;
  lastError: string | null;
  /** When its first failure happened: the retry ceiling counts from it. */
  firstFailedAt: Date | null;
  /** Attempts that found the model down (they do not spend AGENT_MAX_ATTEMPTS). */
  dependencyFailures: number;
  /** The model's answer once `done`. */
  result: unknown;
  replayCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The agent task created for `eventId`, or null when the agent has not seen the event (or it needs no model). */
export async function findAgentTask(db: EntityManager | DataSource, eventId: string): Promise<AgentTaskStatus | null> {
  const rows: Array<Record<string, any>> = await db.query(
    `SELECT event_id, state, attempts, claimed_by, lease_until, NULLIF(next_attempt_at, 'infinity') AS next_attempt_at, last_error_class, last_error, result, replay_count,
            first_failed_at, dependency_failures, created_at, updated_at
       FROM agent_tasks
      WHERE event_id = $1`,
    [eventId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    eventId: row.event_id,
    state: row.state,
    attempts: Number(row.attempts),
    claimedBy: row.claimed_by,
    leaseUntil: row.lease_until ? new Date(row.lease_until) : null,
    nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : null,
    lastError: row.last_error ? `${row.last_error_class ?? 'Error'}: ${row.last_error}` : null,
    firstFailedAt: row.first_failed_at ? new Date(row.first_failed_at) : null,
    dependencyFailures: Number(row.dependency_failures),
    result: row.result ?? null,
    replayCount: Number(row.replay_count),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
