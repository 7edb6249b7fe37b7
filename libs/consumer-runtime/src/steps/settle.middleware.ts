import { ConsumerMetrics } from '../consumer-metrics';
import { PartitionHolds } from '../partition-holds';
import { Delivery, Settled } from './step';

/**
 * Where a message's walk meets its partition: a message done counts (applied, or a duplicate) and its offset may move
 * past it (true); a message that must wait hands its partition back (PartitionHolds) and the batch stops at it, as it
 * does when the consumer is stopping (false).
 */
export function settle(deps: { group: string; metrics: ConsumerMetrics; holds: Pick<PartitionHolds, 'hold'> }) {
  return (next: (delivery: Delivery) => Promise<Settled>) =>
    async (delivery: Delivery): Promise<boolean> => {
      const settled = await next(delivery);
      const { topic, partition, message, reading } = delivery;
      switch (settled.kind) {
        case 'done':
          if (reading?.kind === 'event') deps.metrics.count(deps.group, reading.event.type, settled.value);
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
