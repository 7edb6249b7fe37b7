import { deleteInBatches, JobResult, runExclusiveJob, ScheduledRun } from '@app/jobs';
import { DataSource, EntityManager } from 'typeorm';

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
          deleteSlice(manager, 'processed_events', 'processed_at', retentionSeconds, limit),
        ),
        consumer_event_status: await deleteInBatches(sliceSize, (limit) =>
          deleteSlice(manager, 'consumer_event_status', 'updated_at', retentionSeconds, limit),
        ),
      };
      return { affected: deleted.processed_events + deleted.consumer_event_status, deleted };
    },
    schedule,
  );
}

async function deleteSlice(
  manager: EntityManager,
  table: 'processed_events' | 'consumer_event_status',
  column: 'processed_at' | 'updated_at',
  retentionSeconds: number,
  limit: number,
): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
    `WITH doomed AS (
       SELECT "group", event_id FROM ${table} WHERE ${column} < now() - make_interval(secs => $1) LIMIT $2
     ), gone AS (
       DELETE FROM ${table} t USING doomed d WHERE t."group" = d."group" AND t.event_id = d.event_id RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [retentionSeconds, limit],
  );
  return deleted;
}
