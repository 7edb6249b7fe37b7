import { JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { DataSource } from 'typeorm';
import { SagaCoordinator, SagaTransition } from './saga-coordinator';
import { sagaTransaction } from './saga-transaction';
import { SagasRepository } from './sagas.repository';

export const SAGA_DEADLINES_JOB = 'saga-deadlines';

export interface SagaDeadlinesRun {
  /** Sagas moved: a command sent again, a compensation begun, a saga failed, a retry carried out. */
  affected: number;
}

export interface SagaDeadlinesOptions {
  /** Sagas locked and moved per transaction (default 200). */
  batchSize?: number;
  /** After each committed transaction: wake the relays, count the transitions. */
  onCommitted?: (transitions: SagaTransition[]) => void;
}

/**
 * One run of the deadline job: sagas whose current command went unanswered past its deadline (or whose retry an
 * operator asked for) are moved by the coordinator, a batch per transaction, each with its command in the outbox.
 * Exclusive across processes (advisory lock) with a heartbeat in `job_heartbeats`; sagas busy in another transaction
 * are skipped and taken at the next run.
 */
export function expireSagaDeadlines(
  dataSource: DataSource,
  coordinator: SagaCoordinator,
  options: SagaDeadlinesOptions = {},
  schedule?: ScheduledRun,
): Promise<JobResult<SagaDeadlinesRun>> {
  const batchSize = options.batchSize ?? 200;
  return runExclusiveJob(
    dataSource,
    SAGA_DEADLINES_JOB,
    async () => {
      let affected = 0;
      for (;;) {
        const { locked, transitions } = await dataSource.transaction(async (manager) => {
          const rows = await SagasRepository.lockExpired(manager, batchSize);
          const tx = sagaTransaction(manager);
          const moved: SagaTransition[] = [];
          for (const row of rows) {
            const transition = await coordinator.deadline(tx, row);
            if (transition) moved.push(transition);
          }
          await tx.flush();
          return { locked: rows.length, transitions: moved };
        });
        options.onCommitted?.(transitions);
        affected += transitions.length;
        if (locked < batchSize || transitions.length === 0) return { affected };
      }
    },
    schedule,
  );
}
