import { DataSource, EntityManager } from 'typeorm';
import { EndpointState } from '../webhook-states';
import { SecretSummary } from '../webhook-secret';
import { PayloadFilter } from '../payload-filters';

type Db = DataSource | EntityManager;

export interface WebhookEndpoint {
  id: string;
  /** The customer whose events it receives; null: the operator's, which receives every customer's. */
  customerId: string | null;
  url: string;
  description: string | null;
  eventTypes: string[];
  state: EndpointState;
  disabledReason: string | null;
  disabledAt: Date | null;
  ordered: boolean;
  rateLimitPerSecond: number | null;
  maxInFlight: number | null;
  payloadFilters: PayloadFilter[] | null;
  /** Since when every attempt failed (the auto-disable clock); null after any success. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An endpoint as the API and the CLI show it: its secrets' ids and ages, never their values; its queue. */
export interface WebhookEndpointView extends WebhookEndpoint {
  secrets: SecretSummary[];
  /** Deliveries waiting (`pending`, including those waiting for the endpoint to be enabled) and in flight. */
  queue: { pending: number; sending: number };
  /** Deliveries that spent every attempt and wait for a replay (until retention deletes them), the latest's time. */
  failures: { failed: number; lastFailedAt: Date | null };
}

export type NewWebhookEndpoint = Pick<
  WebhookEndpoint,
  | 'id'
  | 'customerId'
  | 'url'
  | 'description'
  | 'eventTypes'
  | 'ordered'
  | 'rateLimitPerSecond'
  | 'maxInFlight'
  | 'payloadFilters'
>;

/** What a customer may change of its endpoint. */
export type EndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'eventTypes' | 'payloadFilters'>>;

const COLUMNS = `id, customer_id, url, description, event_types, state, disabled_reason, disabled_at, ordered,
  rate_limit_per_second, max_in_flight, payload_filters, failing_since, created_at, updated_at`;

/**
 * `$n` is null (the operator: every endpoint) or a customer's id (that customer's endpoints only). Every statement of a
 * repository made for one customer carries it, so that another's rows are not found.
 */
export const ownedBy = (n: number, column = 'customer_id') => `($${n}::uuid IS NULL OR ${column} = $${n}::uuid)`;

/**
 * The webhook_endpoints and webhook_endpoint_secrets statements of the management side (API, CLI). Made with a
 * customer's id, it sees and changes that customer's endpoints only.
 */
export class WebhookEndpointsRepository {
  private readonly owner: string | null;

  constructor(
    private readonly db: Db,
    customerId?: string,
  ) {
    this.owner = customerId ?? null;
  }

  async insert(endpoint: NewWebhookEndpoint): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_endpoints (id, customer_id, url, description, event_types, ordered, rate_limit_per_second,
                                      max_in_flight, payload_filters)
       VALUES ($1, $2, $3, $4, $5::varchar[], $6, $7, $8, $9::jsonb)`,
      [
        endpoint.id,
        endpoint.customerId,
        endpoint.url,
        endpoint.description,
        endpoint.eventTypes,
        endpoint.ordered,
        endpoint.rateLimitPerSecond,
        endpoint.maxInFlight,
        endpoint.payloadFilters === null ? null : JSON.stringify(endpoint.payloadFilters),
      ],
    );
  }

  /** The given fields of an endpoint (of this repository's customer); false when there is none. */
  async update(id: string, changes: EndpointChanges): Promise<boolean> {
    const result: unknown = await this.db.query(
      `UPDATE webhook_endpoints
          SET url = COALESCE($3, url),
              description = CASE WHEN $4::boolean THEN $5 ELSE description END,
              event_types = COALESCE($6::varchar[], event_types),
              payload_filters = CASE WHEN $7::boolean THEN $8::jsonb ELSE payload_filters END,
              updated_at = now()
        WHERE id = $1 AND ${ownedBy(2)}
       RETURNING id`,
      [
        id,
        this.owner,
        changes.url ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.eventTypes ?? null,
        changes.payloadFilters !== undefined,
        changes.payloadFilters ? JSON.stringify(changes.payloadFilters) : null,
      ],
    );
    return updatedRows(result).length > 0;
  }

  async addSecret(endpointId: string, secretId: string, secret: string): Promise<void> {
    await this.db.query(`INSERT INTO webhook_endpoint_secrets (id, endpoint_id, secret) VALUES ($1, $2, $3)`, [
      secretId,
      endpointId,
      secret,
    ]);
  }

  /** Newest first. */
  async list(): Promise<WebhookEndpointView[]> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE ${ownedBy(1)} ORDER BY created_at DESC, id`,
      [this.owner],
    );
    return this.views(rows);
  }

  async find(id: string): Promise<WebhookEndpointView | undefined> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND ${ownedBy(2)}`,
      [id, this.owner],
    );
    return (await this.views(rows))[0];
  }

  /** In a transaction: the endpoint's row, locked against concurrent changes until the commit. */
  async lock(id: string): Promise<WebhookEndpoint | undefined> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND ${ownedBy(2)} FOR UPDATE`,
      [id, this.owner],
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  /** enabled → disabled with the reason; false when it was not enabled. Its deliveries, new ones too, wait. */
  async disable(id: string, reason: string): Promise<boolean> {
    return (await disableEndpoints(this.db, [id], reason)).length > 0;
  }

  /**
   * disabled → enabled, its failure clock reset; the deliveries that waited are due at once, all at the same time, so
   * that they go in the order their events were consumed. False when it was not disabled.
   */
  async enable(id: string): Promise<boolean> {
    const enabled: unknown[] = await this.db.query(
      `UPDATE webhook_endpoints
          SET state = 'enabled', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL, updated_at = now()
        WHERE id = $1 AND ${ownedBy(2)} AND state = 'disabled'
       RETURNING id`,
      [id, this.owner],
    );
    if (updatedRows(enabled).length === 0) return false;
    await this.db.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now(), updated_at = now()
        WHERE endpoint_id = $1 AND state = 'pending'`,
      [id],
    );
    return true;
  }

  /** A rotation: the current secrets expire after the overlap; those already expired are removed. */
  async expireSecrets(endpointId: string, overlapSeconds: number): Promise<void> {
    await this.db.query(`DELETE FROM webhook_endpoint_secrets WHERE endpoint_id = $1 AND expires_at <= now()`, [
      endpointId,
    ]);
    await this.db.query(
      `UPDATE webhook_endpoint_secrets SET expires_at = now() + $2 * interval '1 second'
        WHERE endpoint_id = $1 AND (expires_at IS NULL OR expires_at > now() + $2 * interval '1 second')`,
      [endpointId, overlapSeconds],
    );
  }

  /** The endpoint, its secrets, deliveries and their attempts (foreign keys cascade). */
  async delete(id: string): Promise<boolean> {
    return (
      updatedRows(
        await this.db.query(`DELETE FROM webhook_endpoints WHERE id = $1 AND ${ownedBy(2)} RETURNING id`, [
          id,
          this.owner,
        ]),
      ).length > 0
    );
  }

  private async views(rows: Array<Record<string, any>>): Promise<WebhookEndpointView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const secrets: Array<Record<string, any>> = await this.db.query(
      `SELECT id, endpoint_id, created_at, expires_at FROM webhook_endpoint_secrets
        WHERE endpoint_id = ANY($1::uuid[]) AND (expires_at IS NULL OR expires_at > now())
        ORDER BY created_at DESC`,
      [ids],
    );
    const queue: Array<{ endpoint_id: string; state: 'pending' | 'sending'; count: number }> = await this.db.query(
      `SELECT endpoint_id, state, count(*)::int AS count FROM webhook_deliveries
        WHERE endpoint_id = ANY($1::uuid[]) AND state IN ('pending', 'sending')
        GROUP BY endpoint_id, state`,
      [ids],
    );
    const failed: Array<{ endpoint_id: string; count: number; last_failed_at: Date | null }> = await this.db.query(
      `SELECT endpoint_id, count(*)::int AS count, max(failed_at) AS last_failed_at FROM webhook_deliveries
        WHERE endpoint_id = ANY($1::uuid[]) AND state = 'failed'
        GROUP BY endpoint_id`,
      [ids],
    );
    return rows.map((row) => ({
      ...toEndpoint(row),
      secrets: secrets
        .filter((secret) => secret.endpoint_id === row.id)
        .map((secret) => ({
          id: secret.id,
          createdAt: new Date(secret.created_at),
          expiresAt: secret.expires_at ? new Date(secret.expires_at) : null,
        })),
      queue: {
        pending: queue.find((q) => q.endpoint_id === row.id && q.state === 'pending')?.count ?? 0,
        sending: queue.find((q) => q.endpoint_id === row.id && q.state === 'sending')?.count ?? 0,
      },
      failures: failuresOf(failed.find((f) => f.endpoint_id === row.id)),
    }));
  }
}

/**
 * enabled → disabled for each endpoint still enabled, with the reason; returns those it disabled. Shared by the
 * operator's disable and the delivery workers' (410 Gone, failing for too long). Their deliveries are left as they
 * are and new ones keep being written: a claim only looks at enabled endpoints, so they wait, and enabling makes them
 * due again.
 */
export async function disableEndpoints(db: Db, ids: string[], reason: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const result: unknown = await db.query(
    `UPDATE webhook_endpoints
        SET state = 'disabled', disabled_reason = $2, disabled_at = now(), updated_at = now()
      WHERE id = ANY($1::uuid[]) AND state = 'enabled'
     RETURNING id`,
    [ids, reason.slice(0, 2000)],
  );
  return updatedRows(result).map((row) => String(row.id));
}

function failuresOf(row: { count: number; last_failed_at: Date | null } | undefined): WebhookEndpointView['failures'] {
  return { failed: row?.count ?? 0, lastFailedAt: row?.last_failed_at ? new Date(row.last_failed_at) : null };
}

function toEndpoint(row: Record<string, any>): WebhookEndpoint {
  return {
    id: row.id,
    customerId: row.customer_id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    state: row.state,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at ? new Date(row.disabled_at) : null,
    ordered: row.ordered,
    rateLimitPerSecond: row.rate_limit_per_second,
    maxInFlight: row.max_in_flight,
    payloadFilters: row.payload_filters,
    failingSince: row.failing_since ? new Date(row.failing_since) : null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** TypeORM's postgres driver answers an UPDATE or DELETE … RETURNING with [rows, count], a SELECT with rows. */
export function updatedRows(result: unknown): Array<Record<string, any>> {
  if (Array.isArray(result) && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0];
  return Array.isArray(result) ? (result as Array<Record<string, any>>) : [];
}
