import { deleteInBatches, JobResult, runExclusivePoolJob, ScheduledRun } from '@app/jobs';
import { OutboxRepository } from '@app/outbox';
import { Pool } from 'pg';

export const OUTBOX_RETENTION_JOB = 'outbox-retention';

export interface RetentionSettings {
  /** Published rows older than this are deleted. */
  retentionSeconds: number;
  /** Rows per DELETE statement. */
  batchSize: number;
}

/**
 * Deletes published outbox rows older than the retention window, batch by batch (each its own short statement), as
 * the job `outbox-retention`: at most one run at a time across all relays, a heartbeat per run. Unpublished and
 * parked rows are never deleted.
 */
export function pruneOutbox(pool: Pool, settings: RetentionSettings, schedule?: ScheduledRun): Promise<JobResult> {
  return runExclusivePoolJob(
    pool,
    OUTBOX_RETENTION_JOB,
    async (rows) => {
      const outbox = new OutboxRepository(rows);
      const cutoff = new Date(Date.now() - settings.retentionSeconds * 1000);
      return {
        affected: await deleteInBatches(settings.batchSize, (limit) => outbox.deletePublishedBefore(cutoff, limit)),
      };
    },
    schedule,
  );
}
