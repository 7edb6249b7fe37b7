/** What this module touches of kafkajs's per-connection request queue (kafkajs ships no types for its internals). */
interface RequestQueueInternals {
  pending: unknown[];
  scheduleCheckPendingRequests(): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };

let quieted = false;

/**
 * Stops kafkajs 2.2.4 from waking its process every millisecond per broker connection.
 *
 * After each request, a connection's request queue arms a timer to look at its queue of requests held back (by
 * client-side throttling or too many in flight). With none held back and no throttling, the timer's delay is negative,
 * so it fires after 1 ms and arms itself again, for as long as the connection lives (kafkajs issues #1556 and #1704;
 * the fix was never released). An idle consumers or relay process woke some 900 times a second for nothing, and on a
 * busy box those wake-ups are CPU the messages wait for.
 *
 * Here the timer is armed only when a request is held back. Nothing else needs it: a request that cannot go at once
 * is held back and arms the timer then, and every response checks the queue itself. Idempotent; every Kafka client
 * of hookrail is made after it has run (createKafka, the access check).
 */
export function quietIdleRequestQueues(): void {
  if (quieted) return;
  const schedule = RequestQueue.prototype.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function')
    throw new Error('kafkajs RequestQueue.scheduleCheckPendingRequests not found: check request-queue-timers.ts');
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    if (this.pending.length > 0) schedule.call(this);
  };
  quieted = true;
}
