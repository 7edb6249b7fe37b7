import { DEAD_LETTER_STATUSES } from '@app/dead-letters';
import { ChartSampler } from '../chart-sampler';

/** Dead letters arriving per minute, per group (by the time the group gave up). */
export const deadLettersSampler: ChartSampler = {
  metric: 'dead-letters',
  title: 'Dead letters, per group',
  unit: '/min',
  async sample({ db, from, to, seconds }) {
    // Every status listed, so that the (status, dead_at) index serves the time range.
    const rows: Array<{ group: string; n: number }> = await db.query(
      `SELECT "group", count(*)::int AS n FROM dead_letters
        WHERE status = ANY($3) AND dead_at >= $1 AND dead_at < $2 GROUP BY "group"`,
      [from, to, [...DEAD_LETTER_STATUSES]],
    );
    return rows.map((row) => ({ series: row.group, value: (row.n * 60) / seconds }));
  },
};
