import { preparedQuery } from '@app/db';
import { giveUpEvent, TaskVerdict } from '@app/tasks';
import { disableEndpoints } from '../endpoints/webhook-endpoints.repository';
import { EntityManager } from 'typeorm';

/**
 * What one attempt came to. `retry`: failed, tried again after `retryInMs`; `final`: failed and it was the last
 * attempt; `gone`: the endpoint answered 410 and is disabled at once.
 */
/**
 * What an attempt made of its delivery: `delivered`; `gone` (410, the endpoint disabled); or a failed attempt's verdict
 * as for every kind of task, `retryable` or `discarded` (the published state `failed`, mapped here and only here).
 */
export type AttemptResult = 'delivered' | TaskVerdict | 'gone';

export interface AttemptOutcome {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  fencingToken: string;
  attempt: number;
  result: AttemptResult;
  /** The wait before the next attempt (retry and gone); null otherwise. */
  retryInMs: number | null;
  startedAt: Date;
  latencyMs: number;
  status: number | null;
  responseBody: string | null;
  error: string | null;
  worker: string;
}

/** Where a delivery ended up after its outcome was written; `fenced` when another claim had taken it meanwhile. */
export type RecordedState = 'delivered' | 'pending' | 'failed' | 'waiting' | 'fenced';

export interface RecordedOutcome {
  outcome: AttemptOutcome;
  state: RecordedState;
}

export interface OutcomeEffects {
  recorded: RecordedOutcome[];
  /** Endpoints disabled by this batch, with the reason. */
  disabled: Array<{ endpointId: string; reason: string }>;
}

const MAX_TEXT = 2000;

/**
 * In one transaction, for a batch of finished attempts: endpoints that answered 410 are disabled; an endpoint with
 * a success in the batch stops failing; one that only failed starts (or keeps) failing and is disabled once it has
 * failed for `disableAfterMs`; each delivery whose fencing token still matches moves on (delivered, pending with its
 * next attempt, failed, or waiting while its endpoint is disabled; pending and due with a fresh schedule when an
 * operator asked for a replay during the attempt); every attempt's log row gets its outcome. A delivery that failed
 * for good leaves the group's dedupe row and is `dead` for the group, like any dead-lettered event.
 */
export async function recordOutcomes(
  manager: EntityManager,
  outcomes: AttemptOutcome[],
  { group, disableAfterMs }: { group: string; disableAfterMs: number },
): Promise<OutcomeEffects> {
  const disabled: OutcomeEffects['disabled'] = [];
  const gone = unique(outcomes.filter((o) => o.result === 'gone').map((o) => o.endpointId));
  for (const endpointId of await disableEndpoints(manager, gone, 'the endpoint answered 410 Gone'))
    disabled.push({ endpointId, reason: 'the endpoint answered 410 Gone' });

  const succeeded = unique(outcomes.filter((o) => o.result === 'delivered').map((o) => o.endpointId));
  const failing = unique(outcomes.map((o) => o.endpointId)).filter((id) => !succeeded.includes(id));
  if (succeeded.length > 0)
    await preparedQuery(
      manager,
      `UPDATE webhook_endpoints SET failing_since = NULL, updated_at = now()
        WHERE id = ANY($1::uuid[]) AND failing_since IS NOT NULL`,
      [succeeded],
    );
  if (failing.length > 0) {
    await manager.query(
      `UPDATE webhook_endpoints SET failing_since = now(), updated_at = now()
        WHERE id = ANY($1::uuid[]) AND failing_since IS NULL`,
      [failing],
    );
    const tooLong: Array<{ id: string; reason: string }> = rowsOf(
      await manager.query(
        `UPDATE webhook_endpoints
            SET state = 'disabled', disabled_at = now(), updated_at = now(),
                disabled_reason = 'every attempt failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
          WHERE id = ANY($1::uuid[]) AND state = 'enabled' AND failing_since <= now() - $2 * interval '1 millisecond'
         RETURNING id, disabled_reason AS reason`,
        [failing, disableAfterMs],
      ),
    );
    disabled.push(...tooLong.map((row) => ({ endpointId: row.id, reason: row.reason })));
  }

  const moved: Array<{ id: string; state: 'delivered' | 'pending' | 'failed'; waiting: boolean }> = rowsOf(
    await preparedQuery(
      manager,
      `UPDATE webhook_deliveries d
          SET state = CASE WHEN d.replay_requested THEN 'pending'
                           WHEN u.result = 'delivered' THEN 'delivered'
                           WHEN e.state = 'disabled' THEN 'pending'
                           WHEN u.result = 'discarded' THEN 'failed'
                           ELSE 'pending' END,
              attempts = CASE WHEN d.replay_requested THEN 0 ELSE d.attempts END,
              next_attempt_at = CASE WHEN d.replay_requested THEN now()
                                     WHEN u.result = 'delivered' THEN 'infinity'::timestamptz
                                     WHEN e.state = 'disabled' THEN now()
                                     WHEN u.result = 'discarded' THEN 'infinity'::timestamptz
                                     ELSE now() + u.retry_in_ms * interval '1 millisecond' END,
              delivered_at = CASE WHEN u.result = 'delivered' AND NOT d.replay_requested THEN now() END,
              failed_at = CASE WHEN u.result = 'discarded' AND e.state <> 'disabled' AND NOT d.replay_requested THEN now() END,
              replay_requested = false, lease_until = NULL, lease_owner = NULL, last_status = u.status,
              last_error = u.error, updated_at = now()
         FROM unnest($1::bigint[], $2::bigint[], $3::varchar[], $4::int[], $5::int[], $6::text[])
              AS u(id, token, result, retry_in_ms, status, error),
              webhook_endpoints e
        WHERE d.id = u.id AND d.fencing_token = u.token AND d.state = 'sending' AND e.id = d.endpoint_id
       RETURNING d.id, d.state, (e.state = 'disabled' AND d.state = 'pending') AS waiting`,
      [
        outcomes.map((o) => o.deliveryId),
        outcomes.map((o) => o.fencingToken),
        outcomes.map((o) => o.result),
        outcomes.map((o) => o.retryInMs ?? 0),
        outcomes.map((o) => o.status),
        outcomes.map((o) => (o.result === 'delivered' ? null : clip(o.error))),
      ],
    ),
  );

  const failedForGood = outcomes.filter((o) =>
    moved.some((row) => String(row.id) === o.deliveryId && row.state === 'failed'),
  );
  for (const outcome of failedForGood)
    await giveUpEvent(manager, {
      group,
      eventId: outcome.eventId,
      attempts: outcome.attempt,
      lastError: `WebhookDeliveryFailedError: ${outcome.error ?? 'failed'}`,
    });

  // Each attempt's row was written by its claim; a stale worker's outcome replaces the note its takeover left.
  // Attempts of deliveries deleted meanwhile (their endpoint was) are dropped with them.
  await preparedQuery(
    manager,
    `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, fencing_token, started_at, latency_ms, status,
                                            response_body, error, worker)
     SELECT u.delivery_id, u.attempt, u.token, u.started_at, u.latency_ms, u.status, u.response_body, u.error, u.worker
       FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::timestamptz[], $5::int[], $6::int[], $7::text[],
                   $8::text[], $9::varchar[])
            AS u(delivery_id, attempt, token, started_at, latency_ms, status, response_body, error, worker)
      WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = u.delivery_id)
     ON CONFLICT (delivery_id, fencing_token) DO UPDATE
        SET latency_ms = EXCLUDED.latency_ms, status = EXCLUDED.status, response_body = EXCLUDED.response_body,
            error = EXCLUDED.error`,
    [
      outcomes.map((o) => o.deliveryId),
      outcomes.map((o) => o.attempt),
      outcomes.map((o) => o.fencingToken),
      outcomes.map((o) => o.startedAt),
      outcomes.map((o) => Math.round(o.latencyMs)),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.responseBody?.replace(/\u0000/g, '') ?? null),
      outcomes.map((o) => clip(o.error)),
      outcomes.map((o) => o.worker),
    ],
  );

  const recorded = outcomes.map((outcome) => {
    const row = moved.find((candidate) => String(candidate.id) === outcome.deliveryId);
    // A delivered attempt counts as delivered also when a replay asked meanwhile queued the delivery again.
    const state: RecordedState = !row
      ? 'fenced'
      : row.waiting
        ? 'waiting'
        : outcome.result === 'delivered'
          ? 'delivered'
          : row.state;
    return { outcome, state };
  });
  return { recorded, disabled };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function clip(text: string | null): string | null {
  return text === null ? null : text.replace(/\u0000/g, '').slice(0, MAX_TEXT);
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result) && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return (Array.isArray(result) ? result : []) as T[];
}
