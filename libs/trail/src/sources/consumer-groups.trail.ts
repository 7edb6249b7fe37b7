import { findGroupRecords } from '@app/consumer-runtime';
import { TrailEntry, TrailSource } from '../trail';

/**
 * Each consumer group's processing of the event: applied (processed_events, committed with the effect), or still
 * retrying, or given up (consumer_event_status, written by the runtime after failed attempts).
 */
export const consumerGroupsTrail: TrailSource = {
  name: 'consumer-groups',
  async entries(event, { db }) {
    const rows = await findGroupRecords(db, event.id);
    const entries: TrailEntry[] = [];
    for (const row of rows) {
      const attempts = row.attempts ?? 1;
      if (row.processedAt) {
        entries.push({
          at: row.processedAt,
          step: 'applied',
          level: 'ok',
          group: row.group,
          summary: `applied by ${row.group}${attempts > 1 ? ` after ${attempts} attempts` : ''}`,
          detail: { group: row.group, attempts, lastError: row.lastError },
        });
      } else if (row.status === 'retrying' && row.updatedAt) {
        entries.push({
          at: row.updatedAt,
          step: 'retrying',
          level: 'warn',
          group: row.group,
          summary: `${row.group} is retrying it (attempt ${attempts} failed: ${row.lastError ?? 'unknown error'})`,
          detail: { group: row.group, attempts, lastError: row.lastError },
        });
      } else if (row.status === 'dead' && row.updatedAt) {
        entries.push({
          at: row.updatedAt,
          step: 'gave-up',
          level: 'error',
          group: row.group,
          summary: `${row.group} gave up after ${attempts} attempt(s): ${row.lastError ?? 'unknown error'}`,
          detail: { group: row.group, attempts, lastError: row.lastError },
        });
      }
    }
    return entries;
  },
};
