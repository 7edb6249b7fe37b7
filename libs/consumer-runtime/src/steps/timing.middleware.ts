import { ConsumerMetrics } from '../consumer-metrics';
import { ParsedMessage } from './message';
import { Apply } from './step';

/** Times each attempt at a message past its key's parking: the handler, behind its dedupe. */
export function timed(deps: { group: string; metrics: ConsumerMetrics }) {
  return <T extends ParsedMessage>(next: Apply<T>): Apply<T> =>
    async (item, attempt, tx) => {
      const stop = deps.metrics.handlerSeconds.startTimer({ group: deps.group, type: item.event.type });
      try {
        return await next(item, attempt, tx);
      } finally {
        stop();
      }
    };
}
