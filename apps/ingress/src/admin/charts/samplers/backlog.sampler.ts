import { ChartSampler } from '../chart-sampler';

/** Unpublished outbox rows at the end of the slot (counted up to ten million, through the unpublished-rows index). */
export const backlogSampler: ChartSampler = {
  metric: 'backlog',
  title: 'Outbox backlog',
  unit: 'rows',
  kind: 'level',
  async sample({ db }) {
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT 10000000) unpublished`,
    );
    return [{ series: '', value: n }];
  },
};
