import { DataSource, EntityManager } from 'typeorm';
import { ownedBy, updatedRows } from '../endpoints/webhook-endpoints.repository';
import { DeliveryState } from '../webhook-states';

type Db = DataSource | EntityManager;

export interface DeliverySummary {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  subject: string | null;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
  replayCount: number;
  createdAt: Date;
}

export interface DeliveryAttempt {
  attempt: number;
  startedAt: Date;
  /** Null while the attempt is in flight (no answer, no error yet). */
  latencyMs: number | null;
  status: number | null;
  responseBody: string | null;
  error: string | null;
  worker: string;
}

export interface DeliveryDetail extends DeliverySummary {
  eventSource: string;
  eventTime: Date;
  /** The body every attempt sent. */
  payload: string;
  attemptLog: DeliveryAttempt[];
}

export interface DeliveryFilter {
  status?: DeliveryState;
  eventType?: string;
  /** created_at >= since */
  since?: Date;
  /** created_at < until */
  until?: Date;
}

const SUMMARY = `id, endpoint_id, event_id, event_type, subject, state, attempts, next_attempt_at, last_attempt_at,
  last_status, last_error, delivered_at, failed_at, replay_count, created_at`;

// Made for one customer, every statement also requires the delivery's endpoint to be that customer's.
const OWNED_ENDPOINT = (n: number) =>
  `($${n}::uuid IS NULL OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE ${ownedBy(n)}))`;

/**
 * The delivery log of an endpoint (webhook_deliveries, webhook_delivery_attempts) and the replay statements. Made
 * with a customer's id, it sees and changes the deliveries of that customer's endpoints only.
 */
export class DeliveryLogRepository {
  private readonly owner: string | null;

  constructor(
    private readonly db: Db,
    customerId?: string,
  ) {
    this.owner = customerId ?? null;
  }

  /** Newest first. */
  async list(endpointId: string, filter: DeliveryFilter, limit: number): Promise<DeliverySummary[]> {
    const { where, params } = filterSql(endpointId, this.owner, filter);
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${SUMMARY} FROM webhook_deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1}`,
      [...params, limit],
    );
    return rows.map(toSummary);
  }

  async find(endpointId: string, deliveryId: string): Promise<DeliveryDetail | undefined> {
    const [row]: Array<Record<string, any>> = await this.db.query(
      `SELECT ${SUMMARY}, event_source, event_time, payload FROM webhook_deliveries
        WHERE endpoint_id = $1 AND id = $2 AND ${OWNED_ENDPOINT(3)}`,
      [endpointId, deliveryId, this.owner],
    );
    if (!row) return undefined;
    const attempts: Array<Record<string, any>> = await this.db.query(
      `SELECT attempt, started_at, latency_ms, status, response_body, error, worker
         FROM webhook_delivery_attempts
        WHERE delivery_id = (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND id = $2 AND ${OWNED_ENDPOINT(3)})
        ORDER BY id`,
      [endpointId, deliveryId, this.owner],
    );
    return {
      ...toSummary(row),
      eventSource: row.event_source,
      eventTime: new Date(row.event_time),
      payload: row.payload,
      attemptLog: attempts.map((attempt) => ({
        attempt: attempt.attempt,
        startedAt: new Date(attempt.started_at),
        latencyMs: attempt.latency_ms,
        status: attempt.status,
        responseBody: attempt.response_body,
        error: attempt.error,
        worker: attempt.worker,
      })),
    };
  }

  /**
   * What a replay of [since, until) sends again: the endpoint's deliveries created in the window that ended
   * (delivered, failed) or are in flight, oldest first; with `status`, only those that ended so. Pending ones are
   * queued already.
   */
  async replayableBetween(
    endpointId: string,
    since: Date,
    until: Date | undefined,
    status: 'delivered' | 'failed' | undefined,
    limit: number,
  ): Promise<DeliverySummary[]> {
    const { where, params } = filterSql(endpointId, this.owner, { since, until });
    const states = status ? [status] : ['delivered', 'failed', 'sending'];
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${SUMMARY} FROM webhook_deliveries WHERE ${where} AND state = ANY($${params.length + 1}::varchar[])
        ORDER BY created_at, id LIMIT $${params.length + 2}`,
      [...params, states, limit],
    );
    return rows.map(toSummary);
  }

  /**
   * A pending delivery of the endpoint due now (its attempts and schedule kept); undefined when it is not pending
   * (any more). Returns its attempts and the new due time.
   */
  async dueNow(endpointId: string, deliveryId: string): Promise<{ attempts: number; nextAttemptAt: Date } | undefined> {
    const [row] = updatedRows(
      await this.db.query(
        `UPDATE webhook_deliveries SET next_attempt_at = LEAST(next_attempt_at, now()), updated_at = now()
          WHERE endpoint_id = $1 AND id = $2 AND state = 'pending' AND ${OWNED_ENDPOINT(3)}
         RETURNING attempts, next_attempt_at`,
        [endpointId, deliveryId, this.owner],
      ),
    );
    return row && { attempts: row.attempts, nextAttemptAt: new Date(row.next_attempt_at) };
  }

  /**
   * Sends the deliveries again, one more replay each: a delivered or failed one is `pending`, due now, with a fresh
   * attempt schedule; one in flight goes again once its attempt is recorded (`replay_requested`). Pending ones, and
   * those whose replay is already asked for, are left alone (so two operators cannot queue one twice). Returns the ids
   * it queued.
   */
  async requeue(endpointId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const result: unknown = await this.db.query(
      `UPDATE webhook_deliveries
          SET state = CASE WHEN state = 'sending' THEN state ELSE 'pending' END,
              replay_requested = (state = 'sending'),
              attempts = CASE WHEN state = 'sending' THEN attempts ELSE 0 END,
              next_attempt_at = CASE WHEN state = 'sending' THEN next_attempt_at ELSE now() END,
              lease_until = CASE WHEN state = 'sending' THEN lease_until END,
              failed_at = NULL, delivered_at = NULL, dead_lettered_at = NULL, replay_count = replay_count + 1,
              updated_at = now()
        WHERE endpoint_id = $1 AND id = ANY($2::bigint[]) AND ${OWNED_ENDPOINT(3)}
          AND (state IN ('delivered', 'failed') OR (state = 'sending' AND NOT replay_requested))
       RETURNING id`,
      [endpointId, ids, this.owner],
    );
    return updatedRows(result)
      .map((row) => String(row.id))
      .sort((a, b) => Number(a) - Number(b));
  }
}

function filterSql(
  endpointId: string,
  owner: string | null,
  filter: DeliveryFilter,
): { where: string; params: unknown[] } {
  const conditions = ['endpoint_id = $1', OWNED_ENDPOINT(2)];
  const params: unknown[] = [endpointId, owner];
  const add = (condition: (param: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (filter.status) add((p) => `state = ${p}`, filter.status);
  if (filter.eventType) add((p) => `event_type = ${p}`, filter.eventType);
  if (filter.since) add((p) => `created_at >= ${p}`, filter.since);
  if (filter.until) add((p) => `created_at < ${p}`, filter.until);
  return { where: conditions.join(' AND '), params };
}

function toSummary(row: Record<string, any>): DeliverySummary {
  const date = (value: unknown) => (value ? new Date(value as string) : null);
  const next = date(row.next_attempt_at);
  return {
    id: String(row.id),
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    subject: row.subject,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt:
      next && Number.isFinite(next.getTime()) && (row.state === 'pending' || row.state === 'sending') ? next : null,
    lastAttemptAt: date(row.last_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: date(row.delivered_at),
    failedAt: date(row.failed_at),
    replayCount: row.replay_count,
    createdAt: new Date(row.created_at),
  };
}
