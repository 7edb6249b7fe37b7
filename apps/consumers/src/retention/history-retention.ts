import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { DataSource } from 'typeorm';
import type { ConsumerService } from '../consumer-service';
import { CONSUMER_SERVICES } from '../consumer-services';

export const HISTORY_RETENTION_JOB = 'history-retention';

export interface HistoryRetentionSettings {
  /** Finished rows older than this are deleted. */
  retentionSeconds: number;
  /** Rows per DELETE statement (default 5000). */
  batchSize?: number;
}

/** Rows a run deleted, per table. */
export interface HistoryPruned {
  affected: number;
  deleted: Record<string, number>;
}

/**
 * Deletes the consumer services' finished rows past the retention window, batch by batch, as the job
 * `history-retention`: the tables of every service's `history` (notifications `sent`, agent tasks `done` or `dead`
 * and on `agent.dlt`, sagas `completed`, `compensated` or `cancelled` with their history), of every group, also of
 * groups this process does not run. Rows still in flight are never deleted. One run at a time across all processes
 * (advisory lock), a heartbeat per run.
 */
export function pruneHistory(
  dataSource: DataSource,
  settings: HistoryRetentionSettings,
  schedule?: ScheduledRun,
  services: Readonly<Record<string, ConsumerService>> = CONSUMER_SERVICES,
): Promise<JobResult<HistoryPruned>> {
  const batchSize = settings.batchSize ?? 5_000;
  const tables = Object.values(services).flatMap((service) => Object.entries(service.history ?? {}));
  return runExclusiveJob(
    dataSource,
    HISTORY_RETENTION_JOB,
    async (manager) => {
      const cutoff = new Date(Date.now() - settings.retentionSeconds * 1000);
      const deleted: Record<string, number> = {};
      for (const [table, deleteBefore] of tables)
        deleted[table] = await deleteInBatches(batchSize, (limit) => deleteBefore(manager, cutoff, limit));
      const affected = Object.values(deleted).reduce((sum, rows) => sum + rows, 0);
      return { affected, deleted };
    },
    schedule,
  );
}
