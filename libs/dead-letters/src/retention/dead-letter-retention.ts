import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { DataSource } from 'typeorm';
import { DeadLettersRepository } from '../dead-letters.repository';

export const DEAD_LETTER_RETENTION_JOB = 'dead-letter-retention';

export interface DeadLetterRetentionSettings {
  /** Resolved and purged rows older than this are deleted. */
  retentionSeconds: number;
  /** Rows per DELETE statement (default 1000). */
  batchSize?: number;
}

/**
 * Deletes resolved and purged dead letters past the retention window, batch by batch, as the job
 * `dead-letter-retention`: one run at a time across all processes (advisory lock), a heartbeat per run. Rows still
 * `dead` or `replaying` are never deleted; the audit table is kept.
 */
export function pruneDeadLetters(
  dataSource: DataSource,
  settings: DeadLetterRetentionSettings,
  schedule?: ScheduledRun,
): Promise<JobResult> {
  const batchSize = settings.batchSize ?? 1000;
  return runExclusiveJob(
    dataSource,
    DEAD_LETTER_RETENTION_JOB,
    async (manager) => {
      const deadLetters = new DeadLettersRepository(manager);
      const cutoff = new Date(Date.now() - settings.retentionSeconds * 1000);
      return { affected: await deleteInBatches(batchSize, (limit) => deadLetters.deleteFinishedBefore(cutoff, limit)) };
    },
    schedule,
  );
}
