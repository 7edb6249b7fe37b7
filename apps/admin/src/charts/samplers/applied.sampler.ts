import { countAppliedByGroup } from '@app/consumer-runtime';
import { ChartSampler } from '../chart-sampler';

/** Events each consumer group applied (effect committed) per second. */
export const appliedSampler: ChartSampler = {
  metric: 'applied',
  title: 'Events applied, per group',
  unit: '/s',
  kind: 'rate',
  async sample({ db, from, to, seconds }) {
    const rows = await countAppliedByGroup(db, from, to);
    return rows.map((row) => ({ series: row.group, value: row.count / seconds }));
  },
};
