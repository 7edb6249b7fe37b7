import { InboundEventRepository } from '@app/inbound-events';
import { ChartSampler } from '../chart-sampler';

/** Events the ingress committed (202) per second, all sources, all ingress instances. */
export const acceptedSampler: ChartSampler = {
  metric: 'accepted',
  title: 'Events accepted',
  unit: '/s',
  kind: 'rate',
  async sample({ db, from, to, seconds }) {
    return [{ series: '', value: (await new InboundEventRepository().countReceivedBetween(db, from, to)) / seconds }];
  },
};
