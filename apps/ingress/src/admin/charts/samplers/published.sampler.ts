import { ChartSampler } from '../chart-sampler';

/** Outbox rows the broker acknowledged per second, all relays. */
export const publishedSampler: ChartSampler = {
  metric: 'published',
  title: 'Events published',
  unit: '/s',
  kind: 'rate',
  async sample({ db, from, to, seconds }) {
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM outbox WHERE published_at >= $1 AND published_at < $2`,
      [from, to],
    );
    return [{ series: '', value: n / seconds }];
  },
};
