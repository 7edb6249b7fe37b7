import { DeadLettersRepository } from '@app/dead-letters';
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
    const rows = await new DeadLettersRepository(db).countByGroupDeadBetween(
      new Date(from.getTime() - INDEXING_DELAY_MS),
      new Date(to.getTime() - INDEXING_DELAY_MS),
    );
    return rows.map((row) => ({ series: row.group, value: (row.count * 60) / seconds }));
  },
};
