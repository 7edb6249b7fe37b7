import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { deleteFinishedDeliveriesBefore, deleteWaitingDeliveriesBefore } from '@app/webhooks';
import { DataSource } from 'typeorm';

export const WEBHOOK_DELIVERIES_RETENTION_JOB = 'webhook-deliveries-retention';

export interface DeliveriesPruned {
  affected: number;
  /** Of those, deliveries that were still waiting for their disabled endpoint. */
  waitedTooLong: number;
}

/**
 * Deletes finished deliveries (and, by cascade, their attempts) created before the retention window, batch by
 * batch, as the job `webhook-deliveries-retention`: one run at a time across all processes, a heartbeat per run.
 * So are deliveries created before the window that still wait for their disabled endpoint: a disabled endpoint keeps
 * its deliveries as long as the retention, no longer. Deliveries pending for an enabled endpoint or sending, and
 * failed ones not yet dead-lettered, are never deleted.
 */
export function pruneWebhookDeliveries(
  dataSource: DataSource,
  { retentionSeconds, batchSize = 5_000 }: { retentionSeconds: number; batchSize?: number },
  schedule?: ScheduledRun,
): Promise<JobResult<DeliveriesPruned>> {
  return runExclusiveJob(
    dataSource,
    WEBHOOK_DELIVERIES_RETENTION_JOB,
    async (manager) => {
      const cutoff = new Date(Date.now() - retentionSeconds * 1000);
      const finished = await deleteInBatches(batchSize, (limit) =>
        deleteFinishedDeliveriesBefore(manager, cutoff, limit),
      );
      const waitedTooLong = await deleteInBatches(batchSize, (limit) =>
        deleteWaitingDeliveriesBefore(manager, cutoff, limit),
      );
      return { affected: finished + waitedTooLong, waitedTooLong };
    },
    schedule,
  );
}
