import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { DataSource, EntityManager } from 'typeorm';

export const WEBHOOK_DELIVERIES_RETENTION_JOB = 'webhook-deliveries-retention';

export interface DeliveriesPruned {
  affected: number;
  /** Of those, deliveries that were still waiting for their disabled endpoint. */
  waitedTooLong: number;
}

// Finished: delivered, or failed and already on webhooks.dlt. Repeated on the DELETE so that a delivery replayed
// meanwhile stays. Probed per endpoint through (endpoint_id, created_at), so no index of its own is needed.
const FINISHED = `(state = 'delivered' OR (state = 'failed' AND dead_lettered_at IS NOT NULL)) AND created_at < $1`;

async function deleteFinishedDeliveriesBefore(manager: EntityManager, cutoff: Date, limit: number): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
    `WITH gone AS (
       DELETE FROM webhook_deliveries
        WHERE id IN (SELECT d.id FROM webhook_endpoints e
                      CROSS JOIN LATERAL (SELECT id FROM webhook_deliveries
                                           WHERE endpoint_id = e.id AND ${FINISHED}
                                           ORDER BY created_at LIMIT $2) d
                      LIMIT $2)
          AND ${FINISHED}
       RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [cutoff, limit],
  );
  return deleted;
}

// Waiting for a disabled endpoint since before the window: kept no longer than a finished delivery would be. Probed
// per disabled endpoint through (endpoint_id, created_at).
async function deleteWaitingDeliveriesBefore(manager: EntityManager, cutoff: Date, limit: number): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
    `WITH gone AS (
       DELETE FROM webhook_deliveries
        WHERE id IN (SELECT d.id FROM webhook_endpoints e
                      CROSS JOIN LATERAL (SELECT id FROM webhook_deliveries
                                           WHERE endpoint_id = e.id AND state = 'pending' AND created_at < $1
                                           ORDER BY created_at LIMIT $2) d
                      WHERE e.state = 'disabled'
                      LIMIT $2)
          AND state = 'pending' AND created_at < $1
          AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE state = 'disabled')
       RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [cutoff, limit],
  );
  return deleted;
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
