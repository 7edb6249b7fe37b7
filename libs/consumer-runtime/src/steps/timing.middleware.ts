import { ConsumerMetrics } from '../consumer-metrics';
import { ParsedMessage } from './message';

/** Times each attempt of a message's handler, in either mode (a duplicate's handler is not run, so not timed). */
export function timed(deps: { group: string; metrics: ConsumerMetrics }) {
  return <T extends ParsedMessage, A extends unknown[], R>(next: (item: T, ...rest: A) => Promise<R>) =>
    async (item: T, ...rest: A): Promise<R> => {
      const stop = deps.metrics.handlerSeconds.startTimer({ group: deps.group, type: item.event.type });
      try {
        return await next(item, ...rest);
      } finally {
        stop();
      }
    };
}
