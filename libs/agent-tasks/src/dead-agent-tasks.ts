import { Failure } from '@app/consumer-runtime';
import { CloudEvent } from '@app/contracts';
import { DeadTask, DeadTaskRows, RecordedFailure } from '@app/tasks';
import { EntityManager } from 'typeorm';

/** At most this many dead tasks per flush. */
export const AGENT_DEAD_LETTER_BATCH = 50;

/**
 * The agent's dead tasks as dead letters, one per task, for the task engine's dead-lettering: the event the task was
 * made from, where it was consumed, its attempts and last error. A task reset by a replay carries the replay's
 * number, so that dying again names the row that replay came from (the task outlives the replay's message).
 */
export const agentDeadTasks: DeadTaskRows = {
  async takeDead(manager: EntityManager, limit: number): Promise<DeadTask[]> {
    const rows: Array<Record<string, any>> = await manager.query(
      `SELECT id, event, source_topic, source_partition, source_offset, replay_count, attempts, last_error_class,
              last_error, last_error_dependency, first_failed_at, updated_at
         FROM agent_tasks
        WHERE state = 'dead' AND dead_lettered_at IS NULL
        ORDER BY id
        LIMIT ${Number(limit)}
          FOR UPDATE SKIP LOCKED`,
    );
    return rows.map((row) => {
      const failure: Failure = {
        error: new RecordedFailure(row.last_error_class ?? 'Error', row.last_error ?? ''),
        errorClass: row.last_error_dependency ? 'dependency' : 'transient',
        attempts: Number(row.attempts),
        firstFailureAt: new Date(row.first_failed_at ?? row.updated_at),
        lastFailureAt: new Date(row.updated_at),
        ...(row.last_error_dependency && { dependency: row.last_error_dependency }),
      };
      return {
        rowIds: [String(row.id)],
        event: row.event as CloudEvent,
        topic: row.source_topic,
        partition: Number(row.source_partition),
        offset: row.source_offset,
        failure,
        replay: Number(row.replay_count),
        log: {
          message: 'dead-lettered',
          fields: {
            errorClass: row.last_error_class,
            attempts: failure.attempts,
            retriedForMs: failure.lastFailureAt.getTime() - failure.firstFailureAt.getTime(),
            ...(failure.dependency && { dependency: failure.dependency }),
          },
        },
      };
    });
  },

  async markDeadLettered(manager: EntityManager, rowIds: string[]): Promise<void> {
    await manager.query(`UPDATE agent_tasks SET dead_lettered_at = now() WHERE id = ANY($1::bigint[])`, [rowIds]);
  },
};
