import { recordEventStatus } from '../consumer-event-status.repository';
import { ParsedMessage } from './message';
import { Apply } from './step';

/**
 * After failures or a replay there is a status row saying otherwise: an event applied at a later attempt, or replayed,
 * turns `processed` in the transaction that holds its effect.
 */
export function markProcessed(group: string) {
  return <T extends ParsedMessage>(next: Apply<T>): Apply<T> =>
    async (item, attempt, tx) => {
      const outcome = await next(item, attempt, tx);
      if (outcome === 'applied' && (attempt > 1 || item.replayCount > 0)) {
        const eventId = item.event.id;
        await recordEventStatus(tx.manager, {
          group,
          eventId,
          status: 'processed',
          attempts: attempt,
          lastError: null,
        });
      }
      return outcome;
    };
}
