import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { DataSource } from 'typeorm';
import { deleteEventStatusesOlderThan } from './consumer-event-status.repository';
import { deleteProcessedEventsOlderThan } from './processed-events.repository';

export const PROCESSED_EVENTS_RETENTION_JOB = 'processed-events-retention';

/** Rows a run deleted, per table. */
export interface ProcessedEventsPruned {
  affected: number;
  deleted: { processed_events: number; consumer_event_status: number };
}

/**
 * Deletes dedupe rows and status rows older than `retentionSeconds`, in slices so that no statement holds many row
 * locks. The retention is the dedupe window: it must exceed how long a message can be redelivered (the topics'
 * retention), or an old redelivery would be applied again. One process at a time (advisory lock); every run leaves a
 * heartbeat in job_heartbeats.
 */
export function pruneProcessedEvents(
  dataSource: DataSource,
  retentionSeconds: number,
  sliceSize = 5_000,
  schedule?: ScheduledRun,
): Promise<JobResult<ProcessedEventsPruned>> {
  return runExclusiveJob(
    dataSource,
    PROCESSED_EVENTS_RETENTION_JOB,
    async (manager) => {
      const deleted = {
        processed_events: await deleteInBatches(sliceSize, (limit) =>
          deleteProcessedEventsOlderThan(manager, retentionSeconds, limit),
        ),
        consumer_event_status: await deleteInBatches(sliceSize, (limit) =>
          deleteEventStatusesOlderThan(manager, retentionSeconds, limit),
        ),
      };
      return { affected: deleted.processed_events + deleted.consumer_event_status, deleted };
    },
    schedule,
  );
}
