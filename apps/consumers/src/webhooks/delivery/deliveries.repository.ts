import { poolQuery } from '@app/db';
import { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;

/** A delivery as its claim returned it: what the attempt needs, and the token that proves it still owns it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  url: string;
  /** Every secret not yet expired, newest first: each signs the attempt. */
  secrets: string[];
  eventId: string;
  eventType: string;
  eventSource: string;
  eventTime: Date;
  subject: string | null;
  payload: string;
  /** Claims so far, this one included. */
  attempts: number;
  fencingToken: string;
  /** `sending` when this claim took over a lease that had run out (its worker died or stalled). */
  priorState: 'pending' | 'sending';
  priorClaimedBy: string | null;
}

export interface ClaimRequest {
  workerId: string;
  /** Most deliveries this claim takes (the process's free worker slots). */
  limit: number;
  leaseMs: number;
  /** In-flight cap of an endpoint without its own `max_in_flight`. */
  endpointConcurrency: number;
  /**
   * Attempts of this process that delivered but are not yet recorded, per endpoint: still `sending` in the table, no
   * longer in flight, so they do not count against the cap.
   */
  settling: ReadonlyMap<string, number>;
}

/**
 * One statement. For each enabled endpoint, in random order (so that none is always served first), room is its
 * in-flight cap minus its live leases (less this process's delivered attempts not yet recorded), and for a
 * rate-limited endpoint at most the tokens in its bucket. Up to that
 * many of its due deliveries (`next_attempt_at <= now()`: pending and due, or sending with a lease that ran out) are
 * locked with SKIP LOCKED, oldest due first; an ordered endpoint only offers the head of each key (no earlier
 * delivery of the key still pending or sending). They become `sending` with a lease, a raised fencing token and one
 * more attempt; the rate-limited endpoints' buckets are spent; a lease that ran out leaves an attempt row saying so.
 * Disabled endpoints are not looked at, so their deliveries wait, and a slow endpoint holds at most its cap.
 */
const CLAIM = `
WITH inflight AS (
  SELECT endpoint_id, count(*)::int AS n
    FROM webhook_deliveries
   WHERE state = 'sending' AND lease_until > now()
   GROUP BY endpoint_id
),
open AS (
  SELECT e.id, e.ordered,
         LEAST(COALESCE(e.max_in_flight, $4) - GREATEST(COALESCE(i.n, 0) - COALESCE(f.n, 0), 0),
               CASE WHEN e.rate_limit_per_second IS NULL THEN $2
                    ELSE floor(LEAST(e.rate_limit_per_second::float8,
                                     e.rate_tokens + extract(epoch FROM now() - e.rate_refilled_at) * e.rate_limit_per_second))::int
               END,
               $2) AS room
    FROM webhook_endpoints e
    LEFT JOIN inflight i ON i.endpoint_id = e.id
    LEFT JOIN unnest($5::uuid[], $6::int[]) AS f(endpoint_id, n) ON f.endpoint_id = e.id
   WHERE e.state = 'enabled'
   ORDER BY random()
),
picked AS (
  SELECT d.id, d.state AS prior_state, d.claimed_by AS prior_claimed_by, d.last_attempt_at AS prior_attempt_at
    FROM open o
   CROSS JOIN LATERAL (
     SELECT d.id, d.state, d.claimed_by, d.last_attempt_at
       FROM webhook_deliveries d
      WHERE d.endpoint_id = o.id AND d.state IN ('pending', 'sending') AND d.next_attempt_at <= now()
        AND (NOT o.ordered OR NOT EXISTS (
              SELECT 1 FROM webhook_deliveries p
               WHERE p.ordered AND p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.id < d.id
                 AND p.state IN ('pending', 'sending')))
      ORDER BY d.next_attempt_at
      LIMIT o.room
        FOR UPDATE SKIP LOCKED
   ) d
   WHERE o.room > 0
   LIMIT $2
),
claimed AS (
  UPDATE webhook_deliveries t
     SET state = 'sending', attempts = t.attempts + 1, fencing_token = t.fencing_token + 1, claimed_by = $1,
         lease_until = now() + $3 * interval '1 millisecond', next_attempt_at = now() + $3 * interval '1 millisecond',
         last_attempt_at = now(), updated_at = now()
   WHERE t.id = ANY(ARRAY(SELECT id FROM picked))
  RETURNING t.id, t.endpoint_id, t.event_id, t.event_type, t.event_source, t.event_time, t.subject, t.payload,
            t.attempts, t.fencing_token
),
spent AS (
  UPDATE webhook_endpoints e
     SET rate_tokens = LEAST(e.rate_limit_per_second::float8,
                             e.rate_tokens + extract(epoch FROM now() - e.rate_refilled_at) * e.rate_limit_per_second) - c.n,
         rate_refilled_at = now()
    FROM (SELECT endpoint_id, count(*) AS n FROM claimed GROUP BY endpoint_id) c
   WHERE e.id = c.endpoint_id AND e.rate_limit_per_second IS NOT NULL
),
lost AS (
  INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, latency_ms, error, worker)
  SELECT p.id, c.attempts - 1, COALESCE(p.prior_attempt_at, now()),
         (extract(epoch FROM now() - COALESCE(p.prior_attempt_at, now())) * 1000)::int,
         'the lease ran out: the worker did not finish this attempt (it crashed or stalled)',
         COALESCE(p.prior_claimed_by, 'unknown')
    FROM picked p JOIN claimed c ON c.id = p.id
   WHERE p.prior_state = 'sending'
)
SELECT c.*, e.url, p.prior_state, p.prior_claimed_by,
       ARRAY(SELECT s.secret FROM webhook_endpoint_secrets s
              WHERE s.endpoint_id = c.endpoint_id AND (s.expires_at IS NULL OR s.expires_at > now())
              ORDER BY s.created_at DESC) AS secrets
  FROM claimed c
  JOIN picked p ON p.id = c.id
  JOIN webhook_endpoints e ON e.id = c.endpoint_id`;

/** Prepared once per connection: planning this statement costs more than running it. */
export async function claimDeliveries(db: DataSource, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const rows = await poolQuery<Record<string, any>>(db, CLAIM, [
    request.workerId,
    request.limit,
    request.leaseMs,
    request.endpointConcurrency,
    [...request.settling.keys()],
    [...request.settling.values()],
  ]);
  return rows.map((row) => ({
    id: String(row.id),
    endpointId: row.endpoint_id,
    url: row.url,
    secrets: row.secrets,
    eventId: row.event_id,
    eventType: row.event_type,
    eventSource: row.event_source,
    eventTime: new Date(row.event_time),
    subject: row.subject,
    payload: row.payload,
    attempts: Number(row.attempts),
    fencingToken: String(row.fencing_token),
    priorState: row.prior_state,
    priorClaimedBy: row.prior_claimed_by,
  }));
}

/** On shutdown: deliveries in hand go back (`pending`, due now, the interrupted attempt not counted). */
export async function releaseDeliveries(db: Db, deliveries: Array<Pick<ClaimedDelivery, 'id' | 'fencingToken'>>) {
  if (deliveries.length === 0) return;
  await db.query(
    `UPDATE webhook_deliveries d
        SET state = 'pending', attempts = d.attempts - 1, next_attempt_at = now(), lease_until = NULL,
            claimed_by = NULL, updated_at = now()
       FROM unnest($1::bigint[], $2::bigint[]) AS u(id, token)
      WHERE d.id = u.id AND d.fencing_token = u.token AND d.state = 'sending'`,
    [deliveries.map((delivery) => delivery.id), deliveries.map((delivery) => delivery.fencingToken)],
  );
}

/** Deliveries waiting or in flight per endpoint (enabled or not), for the queue-depth gauge. */
export async function countQueuedDeliveries(db: Db): Promise<Array<{ endpointId: string; count: number }>> {
  const rows: Array<{ endpoint_id: string; count: number }> = await db.query(
    `SELECT endpoint_id, count(*)::int AS count FROM webhook_deliveries
      WHERE state IN ('pending', 'sending') GROUP BY endpoint_id`,
  );
  return rows.map((row) => ({ endpointId: row.endpoint_id, count: row.count }));
}

export async function countDisabledEndpoints(db: Db): Promise<number> {
  const [{ count }]: Array<{ count: number }> = await db.query(
    `SELECT count(*)::int AS count FROM webhook_endpoints WHERE state = 'disabled'`,
  );
  return count;
}
