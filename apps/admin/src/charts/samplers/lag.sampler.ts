import { ChartSampler } from '../chart-sampler';

/** Messages each consumer group still has to read, at the end of the slot. */
export const lagSampler: ChartSampler = {
  metric: 'lag',
  title: 'Consumer lag, per group',
  unit: 'messages',
  kind: 'level',
  async sample({ lag }) {
    const totals = await lag();
    return [...(totals ?? [])].map(([group, value]) => ({ series: group, value }));
  },
};
