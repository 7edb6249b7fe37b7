import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** The agent's slow-work task of an event, as the status API shows it. */
export interface AgentTaskSummary {
  /** pending, claimed, done, failed or dead. */
  state: string;
  attempts: number;
  lastError: string | null;
  /** When a worker may claim it next; null once it is final. */
  nextAttemptAt: Date | null;
  updatedAt: Date;
}

/** The few columns of an event's agent task that the ingress's status API (GET /events/:id) shows. */
@Injectable()
export class AgentTaskStatusRepository {
  /** The task created for `eventId`, or undefined when the agent has not seen the event (or it needs no model). */
  async findByEventId(manager: EntityManager, eventId: string): Promise<AgentTaskSummary | undefined> {
    const rows: Array<{
      state: string;
      attempts: number;
      last_error_class: string | null;
      last_error: string | null;
      next_attempt_at: Date | null;
      updated_at: Date;
    }> = await manager.query(
      `SELECT state, attempts, last_error_class, last_error,
              NULLIF(next_attempt_at, 'infinity') AS next_attempt_at, updated_at
         FROM agent_tasks
        WHERE event_id = $1`,
      [eventId],
    );
    const row = rows[0];
    return (
      row && {
        state: row.state,
        attempts: Number(row.attempts),
        lastError: row.last_error ? `${row.last_error_class ?? 'Error'}: ${row.last_error}` : null,
        nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : null,
        updatedAt: new Date(row.updated_at),
      }
    );
  }
}
