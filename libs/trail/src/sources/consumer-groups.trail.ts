import { TrailEntry, TrailSource } from '../trail';

interface GroupRow {
  group: string;
  processed_at: Date | null;
  status: string | null;
  attempts: number | null;
  last_error: string | null;
  updated_at: Date | null;
}

/**
 * Each consumer group's processing of the event: applied (processed_events, committed with the effect), or still
 * retrying, or given up (consumer_event_status, written by the runtime after failed attempts).
 */
export const consumerGroupsTrail: TrailSource = {
  name: 'consumer-groups',
  async entries(event, { db }) {
    const rows: GroupRow[] = await db.query(
      `SELECT COALESCE(p."group", s."group") AS "group", p.processed_at, s.status, s.attempts, s.last_error, s.updated_at
         FROM (SELECT "group", processed_at FROM processed_events WHERE event_id = $1) p
         FULL JOIN (SELECT "group", status, attempts, last_error, updated_at FROM consumer_event_status WHERE event_id = $1) s
           ON s."group" = p."group"
        ORDER BY 1`,
      [event.id],
    );
    const entries: TrailEntry[] = [];
    for (const row of rows) {
      const attempts = row.attempts ?? 1;
      if (row.processed_at) {
        entries.push({
          at: new Date(row.processed_at),
          step: 'applied',
          level: 'ok',
          group: row.group,
          summary: `applied by ${row.group}${attempts > 1 ? ` after ${attempts} attempts` : ''}`,
          detail: { group: row.group, attempts, lastError: row.last_error },
        });
      } else if (row.status === 'retrying' && row.updated_at) {
        entries.push({
          at: new Date(row.updated_at),
          step: 'retrying',
          level: 'warn',
          group: row.group,
          summary: `${row.group} is retrying it (attempt ${attempts} failed: ${row.last_error ?? 'unknown error'})`,
          detail: { group: row.group, attempts, lastError: row.last_error },
        });
      } else if (row.status === 'dead' && row.updated_at) {
        entries.push({
          at: new Date(row.updated_at),
          step: 'gave-up',
          level: 'error',
          group: row.group,
          summary: `${row.group} gave up after ${attempts} attempt(s): ${row.last_error ?? 'unknown error'}`,
          detail: { group: row.group, attempts, lastError: row.last_error },
        });
      }
    }
    return entries;
  },
};
