import { preparedQuery } from '@app/db';
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
  /** The id its producer gave the event (`POST /events`): its CloudEvents id; null: the event is hookrail's own. */
  producerEventId: string | null;
  eventType: string;
  eventSource: string;
  eventTime: Date;
  subject: string | null;
  payload: string;
  /** Claims so far, this one included. */
  attempts: number;
  fencingToken: string;
  /** `sending` when this claim took over from another worker (its process was gone, or its lease ran out). */
  priorState: 'pending' | 'sending';
  priorClaimedBy: string | null;
  /** The context of the span that wrote the delivery, when the consumers traced then. */
  traceparent: string | null;
}

export interface ClaimRequest {
  workerId: string;
  /** This process's lease-owner key (see lease-owners.repository.ts); null while its session is down. */
  leaseOwner: number | null;
  /** Most deliveries this claim takes (the process's free worker slots). */
  limit: number;
  /** The process's pool: OUTBOUND_WEBHOOKS_WORKERS. */
  workers: number;
  leaseMs: number;
  /** In-flight cap of an endpoint without its own `max_in_flight`. */
  endpointConcurrency: number;
  /** This process's attempts in flight, per endpoint: what each holds of the pool. */
  held: ReadonlyMap<string, number>;
  /**
   * Attempts of this process that delivered but are not yet recorded, delivery id → fencing token: still `sending` in
   * the table, no longer in flight, so they do not count against the cap.
   */
  settled: ReadonlyMap<string, string>;
}

// A live lease that is not one of this process's delivered-but-unrecorded attempts: a request in flight somewhere.
const IN_FLIGHT = `
  SELECT d.endpoint_id, count(*)::int AS n
    FROM webhook_deliveries d
    LEFT JOIN unnest($3::bigint[], $4::bigint[]) AS s(id, token) ON s.id = d.id AND s.token = d.fencing_token
   WHERE d.state = 'sending' AND d.lease_until > now() AND s.id IS NULL`;

/**
 * Every endpoint with a delivery pending or sending, one probe of the (endpoint, next attempt) index each: a skip
 * scan from one endpoint id to the next. The endpoints with nothing queued, most of them when there are many
 * customers, are never read: a claim costs the endpoints with work, not the endpoints there are.
 */
const ENDPOINTS_WITH_QUEUE = `
  WITH RECURSIVE walk AS (
    (SELECT d.endpoint_id FROM webhook_deliveries d
      WHERE d.state IN ('pending', 'sending') ORDER BY d.endpoint_id LIMIT 1)
    UNION ALL
    SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
             WHERE d.state IN ('pending', 'sending') AND d.endpoint_id > w.endpoint_id
             ORDER BY d.endpoint_id LIMIT 1)
      FROM walk w
     WHERE w.endpoint_id IS NOT NULL
  )
  SELECT endpoint_id FROM walk`;

/**
 * The endpoints this claim may take deliveries from, locked (FOR NO KEY UPDATE, SKIP LOCKED: another process is
 * claiming for the others) until the claim commits, so that the next claim for an endpoint, in any process, counts the
 * deliveries this one takes. `busy`: enabled endpoints with deliveries due (found from the queued deliveries, never by reading every endpoint), and
 * those with attempts in flight here.
 * `share`: the most one endpoint may hold of this process's pool, an equal part of it with one part kept free for an
 * endpoint that had nothing to send: pool / (busy + 1), at least 1. Locked are the busy endpoints with deliveries due,
 * below their in-flight cap and below their share here, in random order. Whether an endpoint has a delivery due is
 * one probe of its (endpoint, next attempt) index, whatever the statistics: as an EXISTS, the plan prepared on a
 * small table scanned every due delivery of every endpoint (20,500 index entries per endpoint, 41 ms a claim, with
 * eight slow endpoints' backlogs), and a fast endpoint's claims came round too slowly to keep up.
 */
export const LOCK_OPEN_ENDPOINTS = `
WITH held AS (
  SELECT * FROM unnest($1::uuid[], $2::int[]) AS h(endpoint_id, n)
),
inflight AS (${IN_FLIGHT}
   GROUP BY d.endpoint_id
),
queued AS (
  SELECT endpoint_id FROM (${ENDPOINTS_WITH_QUEUE}) q WHERE endpoint_id IS NOT NULL
),
due AS (
  SELECT e.id, COALESCE(e.max_in_flight, $5) AS cap
    FROM queued q
    JOIN webhook_endpoints e ON e.id = q.endpoint_id
   CROSS JOIN LATERAL (
     SELECT 1 FROM webhook_deliveries d
      WHERE d.endpoint_id = e.id AND d.state IN ('pending', 'sending') AND d.next_attempt_at <= now()
      ORDER BY d.next_attempt_at
      LIMIT 1
   ) first_due
   WHERE e.state = 'enabled'
),
fair AS (
  SELECT GREATEST(1, $6 / (count(*) + 1))::int AS share
    FROM (SELECT id FROM due UNION SELECT endpoint_id FROM held) busy
)
SELECT e.id, f.share
  FROM webhook_endpoints e
  JOIN due w ON w.id = e.id
 CROSS JOIN fair f
  LEFT JOIN inflight i ON i.endpoint_id = e.id
  LEFT JOIN held h ON h.endpoint_id = e.id
 WHERE w.cap > COALESCE(i.n, 0) AND f.share > COALESCE(h.n, 0)
 ORDER BY random()
   FOR NO KEY UPDATE OF e SKIP LOCKED`;

/**
 * For the endpoints locked above, under their locks (a snapshot that sees every claim committed before): room is the
 * in-flight cap minus the live leases (less this process's delivered attempts not yet recorded), at most the share
 * less what the endpoint holds here, and for a rate-limited endpoint at most the tokens in its bucket. Up to that many
 * of its due deliveries (`next_attempt_at <= now()`: pending and due, or sending with a lease that ran out) are locked
 * with SKIP LOCKED, oldest due first, then by id (consumption order); an ordered endpoint only offers the head of each
 * key (no earlier delivery of the key still pending or sending). The first of every endpoint goes before any second.
 * They become `sending` with a lease owned by this process, a raised fencing token and one more attempt, whose log
 * row starts now; the rate-limited endpoints' buckets are spent; a lease that ran out closes its attempt's row.
 */
const CLAIM = `
WITH inflight AS (${IN_FLIGHT} AND d.endpoint_id = ANY($5::uuid[])
   GROUP BY d.endpoint_id
),
open AS (
  SELECT e.id, e.ordered,
         LEAST(COALESCE(e.max_in_flight, $6) - COALESCE(i.n, 0),
               $7 - COALESCE(h.n, 0),
               CASE WHEN e.rate_limit_per_second IS NULL THEN $8
                    ELSE floor(LEAST(e.rate_limit_per_second::float8,
                                     e.rate_tokens + extract(epoch FROM now() - e.rate_refilled_at) * e.rate_limit_per_second))::int
               END,
               $8) AS room
    FROM webhook_endpoints e
    LEFT JOIN inflight i ON i.endpoint_id = e.id
    LEFT JOIN unnest($1::uuid[], $2::int[]) AS h(endpoint_id, n) ON h.endpoint_id = e.id
   WHERE e.id = ANY($5::uuid[]) AND e.state = 'enabled'
),
ranked AS (
  SELECT d.id, d.state AS prior_state, d.claimed_by AS prior_claimed_by, d.last_attempt_at AS prior_attempt_at,
         d.fencing_token AS prior_token,
         row_number() OVER (PARTITION BY o.id ORDER BY d.next_attempt_at, d.id) AS rank
    FROM open o
   CROSS JOIN LATERAL (
     SELECT d.id, d.state, d.claimed_by, d.last_attempt_at, d.fencing_token, d.next_attempt_at
       FROM webhook_deliveries d
      WHERE d.endpoint_id = o.id AND d.state IN ('pending', 'sending') AND d.next_attempt_at <= now()
        AND (NOT o.ordered OR NOT EXISTS (
              SELECT 1 FROM webhook_deliveries p
               WHERE p.ordered AND p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.id < d.id
                 AND p.state IN ('pending', 'sending')))
      ORDER BY d.next_attempt_at, d.id
      LIMIT o.room
        FOR UPDATE SKIP LOCKED
   ) d
   WHERE o.room > 0
),
picked AS (
  SELECT * FROM ranked ORDER BY rank, random() LIMIT $8
),
claimed AS (
  UPDATE webhook_deliveries t
     SET state = 'sending', attempts = t.attempts + 1, fencing_token = t.fencing_token + 1, claimed_by = $9,
         lease_owner = $10, lease_until = now() + $11 * interval '1 millisecond',
         next_attempt_at = now() + $11 * interval '1 millisecond', last_attempt_at = now(), replay_requested = false,
         updated_at = now()
   WHERE t.id = ANY(ARRAY(SELECT id FROM picked))
  RETURNING t.id, t.endpoint_id, t.event_id, t.producer_event_id, t.event_type, t.event_source, t.event_time,
            t.subject, t.payload, t.attempts, t.fencing_token, t.traceparent
),
spent AS (
  UPDATE webhook_endpoints e
     SET rate_tokens = LEAST(e.rate_limit_per_second::float8,
                             e.rate_tokens + extract(epoch FROM now() - e.rate_refilled_at) * e.rate_limit_per_second) - c.n,
         rate_refilled_at = now()
    FROM (SELECT endpoint_id, count(*) AS n FROM claimed GROUP BY endpoint_id) c
   WHERE e.id = c.endpoint_id AND e.rate_limit_per_second IS NOT NULL
),
started AS (
  INSERT INTO webhook_delivery_attempts (delivery_id, attempt, fencing_token, started_at, worker)
  SELECT c.id, c.attempts, c.fencing_token, now(), $9 FROM claimed c
),
lost AS (
  INSERT INTO webhook_delivery_attempts (delivery_id, attempt, fencing_token, started_at, latency_ms, error, worker)
  SELECT p.id, c.attempts - 1, p.prior_token, COALESCE(p.prior_attempt_at, now()),
         (extract(epoch FROM now() - COALESCE(p.prior_attempt_at, now())) * 1000)::int,
         'the lease ran out: the worker did not finish this attempt (it crashed or stalled)',
         COALESCE(p.prior_claimed_by, 'unknown')
    FROM picked p JOIN claimed c ON c.id = p.id
   WHERE p.prior_state = 'sending'
  ON CONFLICT (delivery_id, fencing_token) DO UPDATE
     SET latency_ms = EXCLUDED.latency_ms, error = EXCLUDED.error
   WHERE webhook_delivery_attempts.latency_ms IS NULL
)
SELECT c.*, e.url, p.prior_state, p.prior_claimed_by,
       ARRAY(SELECT s.secret FROM webhook_endpoint_secrets s
              WHERE s.endpoint_id = c.endpoint_id AND (s.expires_at IS NULL OR s.expires_at > now())
              ORDER BY s.created_at DESC) AS secrets
  FROM claimed c
  JOIN picked p ON p.id = c.id
  JOIN webhook_endpoints e ON e.id = c.endpoint_id`;

/**
 * One transaction: the endpoints with room locked, then their deliveries claimed. Both statements are prepared once
 * per connection: planning them costs more than running them.
 */
export async function claimDeliveries(db: DataSource, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const held = [[...request.held.keys()], [...request.held.values()]];
  const settled = [[...request.settled.keys()], [...request.settled.values()]];
  const rows = await db.transaction(async (manager) => {
    const open = await preparedQuery<{ id: string; share: number }>(manager, LOCK_OPEN_ENDPOINTS, [
      ...held,
      ...settled,
      request.endpointConcurrency,
      request.workers,
    ]);
    if (open.length === 0) return [];
    return preparedQuery<Record<string, any>>(manager, CLAIM, [
      ...held,
      ...settled,
      open.map((endpoint) => endpoint.id),
      request.endpointConcurrency,
      open[0].share,
      request.limit,
      request.workerId,
      request.leaseOwner,
      request.leaseMs,
    ]);
  });
  return rows.map((row) => ({
    id: String(row.id),
    endpointId: row.endpoint_id,
    url: row.url,
    secrets: row.secrets,
    eventId: row.event_id,
    producerEventId: row.producer_event_id,
    eventType: row.event_type,
    eventSource: row.event_source,
    eventTime: new Date(row.event_time),
    subject: row.subject,
    payload: row.payload,
    attempts: Number(row.attempts),
    fencingToken: String(row.fencing_token),
    priorState: row.prior_state,
    priorClaimedBy: row.prior_claimed_by,
    traceparent: row.traceparent,
  }));
}

/**
 * On shutdown: deliveries in hand go back (`pending`, due now, the interrupted attempt not counted); their attempts'
 * rows say so, since the receiver may have seen the request.
 */
export async function releaseDeliveries(db: Db, deliveries: Array<Pick<ClaimedDelivery, 'id' | 'fencingToken'>>) {
  if (deliveries.length === 0) return;
  await db.query(
    `WITH released AS (
       UPDATE webhook_deliveries d
          SET state = 'pending', attempts = d.attempts - 1, next_attempt_at = now(), lease_until = NULL,
              claimed_by = NULL, lease_owner = NULL, updated_at = now()
         FROM unnest($1::bigint[], $2::bigint[]) AS u(id, token)
        WHERE d.id = u.id AND d.fencing_token = u.token AND d.state = 'sending'
       RETURNING d.id, d.fencing_token
     )
     UPDATE webhook_delivery_attempts a
        SET latency_ms = (extract(epoch FROM now() - a.started_at) * 1000)::int,
            error = 'interrupted: the worker shut down during this attempt; it goes again and does not count'
       FROM released r
      WHERE a.delivery_id = r.id AND a.fencing_token = r.fencing_token AND a.latency_ms IS NULL`,
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
