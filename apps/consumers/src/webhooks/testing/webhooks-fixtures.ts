import { AllowList, SsrfGuard } from '@app/ssrf-guard';
import { waitFor } from '@app/testing';
import { createWebhookEndpoint, WebhookAdminContext } from '@app/webhooks';
import { DataSource } from 'typeorm';

/**
 * A consumers app running only the `webhooks` group on the orders topic, allowed to reach receivers on 127.0.0.1
 * over http, with a short retry schedule and quick polling; `overrides` change any of it.
 */
export function webhooksEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    OUTBOUND_WEBHOOKS_TOPICS: 'shop.orders',
    OUTBOUND_WEBHOOKS_ALLOW_HOSTS: '127.0.0.1',
    OUTBOUND_WEBHOOKS_ALLOW_HTTP: 'true',
    OUTBOUND_WEBHOOKS_POLL_INTERVAL_MS: '50',
    OUTBOUND_WEBHOOKS_RETRY_SCHEDULE: '0,100ms,100ms,100ms',
    OUTBOUND_WEBHOOKS_RETRY_JITTER: '0',
    OUTBOUND_WEBHOOKS_CONNECT_TIMEOUT_MS: '1000',
    OUTBOUND_WEBHOOKS_TIMEOUT_MS: '2000',
    OUTBOUND_WEBHOOKS_LEASE_MS: '4000',
    ...overrides,
  };
}

/** The management side as the API and the CLI run it, allowed to register receivers on 127.0.0.1. */
export function adminContext(dataSource: DataSource): WebhookAdminContext {
  return {
    dataSource,
    guard: new SsrfGuard({ allowHttp: true, allowPorts: [], allowList: AllowList.parse(['127.0.0.1']) }),
  };
}

export interface TestEndpoint {
  id: string;
  secret: string;
}

export async function addEndpoint(
  dataSource: DataSource,
  url: string,
  options: { eventTypes?: string[]; ordered?: boolean; rateLimitPerSecond?: number; maxInFlight?: number } = {},
): Promise<TestEndpoint> {
  const { endpoint, secret } = await createWebhookEndpoint(
    adminContext(dataSource),
    { url, eventTypes: options.eventTypes ?? ['shop.order.*'], ...options },
    'test',
  );
  return { id: endpoint.id, secret };
}

export interface DeliveryRow {
  id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  replay_count: number;
}

export async function deliveryOf(
  dataSource: DataSource,
  eventId: string,
  endpointId: string,
): Promise<DeliveryRow | undefined> {
  const [row] = await dataSource.query(
    `SELECT id::text, state, attempts, last_status, last_error, replay_count
       FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2`,
    [eventId, endpointId],
  );
  return row;
}

/** Waits until the delivery of `eventId` to the endpoint is in `state`. */
export function deliveryIn(
  dataSource: DataSource,
  eventId: string,
  endpointId: string,
  state: string,
  timeoutMs = 20_000,
): Promise<DeliveryRow> {
  return waitFor(
    async () => {
      const row = await deliveryOf(dataSource, eventId, endpointId);
      return row?.state === state ? row : undefined;
    },
    { what: `delivery of ${eventId} ${state}`, timeoutMs },
  );
}

export async function attemptLog(
  dataSource: DataSource,
  deliveryId: string,
): Promise<Array<{ attempt: number; status: number | null; error: string | null }>> {
  return dataSource.query(
    `SELECT attempt, status, error FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY id`,
    [deliveryId],
  );
}
