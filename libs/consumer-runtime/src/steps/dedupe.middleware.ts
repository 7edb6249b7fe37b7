import { ParsedMessage } from './message';
import { Apply } from './step';

/**
 * Watermill's deduplicator, inside the effect's transaction: the message goes on only if this transaction claimed the
 * event's `processed_events` row. Both commit together or neither does, so a redelivery finds the row and skips.
 */
export function dedupe<T extends ParsedMessage>(next: Apply<T>): Apply<T> {
  return async (item, attempt, tx) => (tx.claims.take(item.event.id) ? next(item, attempt, tx) : 'duplicate');
}
