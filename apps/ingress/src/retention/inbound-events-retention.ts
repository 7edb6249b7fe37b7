import { InboundEventRepository } from '@app/inbound-events';
import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { DataSource } from 'typeorm';

export const INBOUND_EVENTS_RETENTION_JOB = 'inbound-events-retention';

export interface InboundEventsRetentionSettings {
  /** Events received before this long ago are deleted. */
  retentionSeconds: number;
  /** Rows per DELETE statement (default 5000). */
  batchSize?: number;
}

/**
 * Deletes accepted deliveries past the retention window, batch by batch, as the job `inbound-events-retention`: at
 * most one run at a time across all ingress instances (advisory lock), a heartbeat per run. The window is the sender
 * dedupe window: a retry of a deleted event is accepted again, and `GET /events/:id` answers 404 for it. Nothing
 * references the table by foreign key; the event's outbox row is pruned by the relay far sooner.
 */
export function pruneInboundEvents(
  dataSource: DataSource,
  settings: InboundEventsRetentionSettings,
  schedule?: ScheduledRun,
): Promise<JobResult> {
  const batchSize = settings.batchSize ?? 5_000;
  return runExclusiveJob(
    dataSource,
    INBOUND_EVENTS_RETENTION_JOB,
    async (manager) => {
      const inboundEvents = new InboundEventRepository();
      const cutoff = new Date(Date.now() - settings.retentionSeconds * 1000);
      return {
        affected: await deleteInBatches(batchSize, (limit) =>
          inboundEvents.deleteReceivedBefore(manager, cutoff, limit),
        ),
      };
    },
    schedule,
  );
}
