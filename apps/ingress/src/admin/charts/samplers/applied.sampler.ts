import { ChartSampler } from '../chart-sampler';

/** Events each consumer group applied (effect committed) per second. */
export const appliedSampler: ChartSampler = {
  metric: 'applied',
  title: 'Events applied, per group',
  unit: '/s',
  kind: 'rate',
  async sample({ db, from, to, seconds }) {
    const rows: Array<{ group: string; n: number }> = await db.query(
      `SELECT "group", count(*)::int AS n FROM processed_events
        WHERE processed_at >= $1 AND processed_at < $2 GROUP BY "group"`,
      [from, to],
    );
    return rows.map((row) => ({ series: row.group, value: row.n / seconds }));
  },
};
