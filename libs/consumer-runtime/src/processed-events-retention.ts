import { JobResult, runExclusiveJob } from '@app/jobs';
import { DataSource } from 'typeorm';

export const PROCESSED_EVENTS_RETENTION_JOB = 'processed-events-retention';

/**
 * Deletes dedupe rows and status rows older than `retentionSeconds`, in slices so that no statement holds many row
 * locks. The retention is the dedupe window: it must exceed how long a message can be redelivered (the topics'
 * retention), or an old redelivery would be applied again. One process at a time (advisory lock); every run leaves a
 * heartbeat in job_heartbeats.
 */
export function pruneProcessedEvents(dataSource: DataSource, retentionSeconds: number, sliceSize = 5_000): Promise<JobResult> {
  return runExclusiveJob(dataSource, PROCESSED_EVENTS_RETENTION_JOB, async (manager) => {
    let affected = 0;
    for (const table of ['processed_events', 'consumer_event_status'] as const) {
      const column = table === 'processed_events' ? 'processed_at' : 'updated_at';
      for (;;) {
        const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
          `WITH doomed AS (
             SELECT "group", event_id FROM ${table} WHERE ${column} < now() - make_interval(secs => $1) LIMIT $2
           ), gone AS (
             DELETE FROM ${table} t USING doomed d WHERE t."group" = d."group" AND t.event_id = d.event_id RETURNING 1
           )
           SELECT count(*)::int AS deleted FROM gone`,
          [retentionSeconds, sliceSize],
        );
        affected += deleted;
        if (deleted < sliceSize) break;
      }
    }
    return { affected };
  });
}
