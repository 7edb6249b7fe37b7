import { managerRows } from '@app/db';
import { OutboxRepository } from '@app/outbox';
import { ChartSampler } from '../chart-sampler';

/** Outbox rows the broker acknowledged per second, all relays. */
export const publishedSampler: ChartSampler = {
  metric: 'published',
  title: 'Events published',
  unit: '/s',
  kind: 'rate',
  async sample({ db, from, to, seconds }) {
    return [
      { series: '', value: (await new OutboxRepository(managerRows(db)).countPublishedBetween(from, to)) / seconds },
    ];
  },
};
