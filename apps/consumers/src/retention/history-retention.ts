import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { SagasRepository } from '@app/saga';
import { DataSource } from 'typeorm';
import { deleteFinishedAgentTasksBefore } from '../agent/agent-tasks.repository';
import { deleteSentNotificationsBefore } from '../notifier/notifications.repository';

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
  deleted: { notifications: number; agent_tasks: number; sagas: number };
}

/**
 * Deletes the consumer services' finished rows past the retention window, batch by batch, as the job
 * `history-retention`: notifications `sent`, agent tasks `done` or `dead` (and on `agent.dlt`), sagas `completed`,
 * `compensated` or `cancelled` with their history. Rows still in flight (`sending`, `pending`, `claimed`, `failed`, a
 * saga running, compensating or failed) are never deleted. One run at a time across all processes (advisory lock), a
 * heartbeat per run.
 */
export function pruneHistory(
  dataSource: DataSource,
  settings: HistoryRetentionSettings,
  schedule?: ScheduledRun,
): Promise<JobResult<HistoryPruned>> {
  const batchSize = settings.batchSize ?? 5_000;
  return runExclusiveJob(
    dataSource,
    HISTORY_RETENTION_JOB,
    async (manager) => {
      const cutoff = new Date(Date.now() - settings.retentionSeconds * 1000);
      const deleted = {
        notifications: await deleteInBatches(batchSize, (limit) =>
          deleteSentNotificationsBefore(manager, cutoff, limit),
        ),
        agent_tasks: await deleteInBatches(batchSize, (limit) =>
          deleteFinishedAgentTasksBefore(manager, cutoff, limit),
        ),
        sagas: await deleteInBatches(batchSize, (limit) => SagasRepository.deleteEndedBefore(manager, cutoff, limit)),
      };
      return { affected: deleted.notifications + deleted.agent_tasks + deleted.sagas, deleted };
    },
    schedule,
  );
}
