import { ChartSampler } from '../chart-sampler';

/** Events the ingress committed (202) per second, all sources, all ingress instances. */
export const acceptedSampler: ChartSampler = {
  metric: 'accepted',
  title: 'Events accepted',
  unit: '/s',
  kind: 'rate',
  async sample({ db, from, to, seconds }) {
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM inbound_events WHERE received_at >= $1 AND received_at < $2`,
      [from, to],
    );
    return [{ series: '', value: n / seconds }];
  },
};
