import { ConsumerMetrics } from '../consumer-metrics';
import { PartitionHolds } from '../partition-holds';
import { Delivery, SettleStep, Walk } from './step';

/** The count step, last before a mode settles a message: an event done counts as applied or as a duplicate. */
export function counted(deps: { group: string; metrics: ConsumerMetrics }) {
  return (next: Walk): Walk =>
    async (delivery) => {
      const settled = await next(delivery);
      const { reading } = delivery;
      if (settled.kind === 'done' && reading?.kind === 'event')
        deps.metrics.count(deps.group, reading.event.type, settled.value);
      return settled;
    };
}

/**
 * The batch mode's settle step, where a message's walk meets its partition: a message done lets the offset move past
 * it (true); a message that must wait hands its partition back (PartitionHolds) and the batch stops at it, as it does
 * when the consumer is stopping (false).
 */
export function settle(deps: { holds: Pick<PartitionHolds, 'hold'> }): SettleStep<Delivery, boolean> {
  return (next) => async (delivery) => {
    const settled = await next(delivery);
    const { topic, partition, message } = delivery;
    switch (settled.kind) {
      case 'done':
        return true;
      case 'waiting': {
        const { retryAt, failure, deadlineAt } = settled;
        deps.holds.hold({ topic, partition, offset: message.offset, failure, retryAt, deadlineAt });
        return false;
      }
      case 'interrupted':
        return false;
    }
  };
}
