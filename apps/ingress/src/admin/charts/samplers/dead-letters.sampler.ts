import { DEAD_LETTER_STATUSES } from '@app/dead-letters';
import { ChartSampler } from '../chart-sampler';

/**
 * The dead-letter store indexes a dead letter a moment after its group gave up (`dead_at`, the time the chart uses);
 * the slot counted is the one that ended this long ago, so that late rows are in it.
 */
const INDEXING_DELAY_MS = 5000;

/** Dead letters arriving per minute, per group (by the time the group gave up, a few seconds behind). */
export const deadLettersSampler: ChartSampler = {
  metric: 'dead-letters',
  title: 'Dead letters, per group',
  unit: '/min',
  kind: 'rate',
  async sample({ db, from, to, seconds }) {
    // Every status listed, so that the (status, dead_at) index serves the time range.
    const rows: Array<{ group: string; n: number }> = await db.query(
      `SELECT "group", count(*)::int AS n FROM dead_letters
        WHERE status = ANY($3) AND dead_at >= $1 AND dead_at < $2 GROUP BY "group"`,
      [
        new Date(from.getTime() - INDEXING_DELAY_MS),
        new Date(to.getTime() - INDEXING_DELAY_MS),
        [...DEAD_LETTER_STATUSES],
      ],
    );
    return rows.map((row) => ({ series: row.group, value: (row.n * 60) / seconds }));
  },
};
