import { managerRows } from '@app/db';
import { OutboxRepository } from '@app/outbox';
import { ChartSampler } from '../chart-sampler';

/** Counted up to ten million, through the unpublished-rows index. */
const BACKLOG_CAP = 10_000_000;

/** Unpublished outbox rows at the end of the slot. */
export const backlogSampler: ChartSampler = {
  metric: 'backlog',
  title: 'Outbox backlog',
  unit: 'rows',
  kind: 'level',
  async sample({ db }) {
    return [{ series: '', value: await new OutboxRepository(managerRows(db)).countUnpublished(BACKLOG_CAP) }];
  },
};
