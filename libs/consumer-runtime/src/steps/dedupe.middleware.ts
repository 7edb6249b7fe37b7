import { CloudEvent } from '@app/contracts';
import { ConsumerContext, Handler } from '../handler';
import { ProcessedEventClaims } from '../processed-events.repository';

export type DedupeOutcome = 'applied' | 'duplicate';

/**
 * Watermill's deduplicator, inside the effect's transaction: the handler runs only if this transaction claimed the
 * event's `processed_events` row. Both commit together or neither does, so a redelivery finds the row and skips.
 */
export function dedupe(handler: Handler) {
  return async (event: CloudEvent, ctx: ConsumerContext, claims: ProcessedEventClaims): Promise<DedupeOutcome> => {
    if (!claims.take(event.id)) return 'duplicate';
    await handler(event, ctx);
    return 'applied';
  };
}
