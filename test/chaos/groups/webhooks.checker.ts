import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { Webhook } from 'standardwebhooks';
import { ChaosGroup, CheckContext, InvariantRow, noneRow, orderRow } from './chaos-group';

const RECEIVER = 'webhook-receiver';
const TYPES = [SHOP_ORDER_PLACED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_CANCELLED_V1];
/** Share of webhooks the receiver answers 503: retries, under the faults. */
const FAILURE_RATE = 0.05;

interface Endpoint {
  name: string;
  ordered: boolean;
  id?: string;
  secret?: string;
}

/** Two endpoints on one receiver: one ordered (one delivery of an order at a time, in sequence), one not. */
const ENDPOINTS: Endpoint[] = [
  { name: 'ordered', ordered: true },
  { name: 'any', ordered: false },
];

interface Received {
  path: string;
  webhookId: string;
  webhookTimestamp: string;
  webhookSignature: string;
  body: string;
  status: number;
}

/**
 * Outbound webhooks (`webhooks`): every order event goes out to each endpoint as a signed webhook. What counts is what
 * the receiver got: each event answered 2xx at least once per endpoint (a worker killed mid-request sends it again,
 * under the same `webhook-id`), every request signed with the endpoint's secret, the ordered endpoint's first
 * receipts in each order's sequence; and each delivery row `delivered`, once per event and endpoint. The receiver
 * fails a share of requests, and retries come within seconds (a short schedule for the run).
 */
export const WEBHOOKS_CHAOS: ChaosGroup = {
  group: 'webhooks',
  providers: [
    {
      name: RECEIVER,
      entry: 'apps/consumers/src/webhooks/dev-receiver/main.js',
      env: (port) => ({ WEBHOOK_RECEIVER_PORT: String(port), WEBHOOK_RECEIVER_FAILURE_RATE: String(FAILURE_RATE) }),
      readyLine: 'webhook receiver listening on',
    },
  ],
  consumerEnv: (urls) => ({
    ...allowReceiver(urls),
    OUTBOUND_WEBHOOKS_RETRY_SCHEDULE: '0,1s,2s,4s,8s,15s,30s,30s,30s,30s',
    OUTBOUND_WEBHOOKS_TIMEOUT_MS: '5000',
    OUTBOUND_WEBHOOKS_CONNECT_TIMEOUT_MS: '2000',
    // A killed worker's delivery is another's within seconds.
    OUTBOUND_WEBHOOKS_LEASE_MS: '6000',
  }),
  adminEnv: allowReceiver,
  async prepare(ctx) {
    for (const endpoint of ENDPOINTS) {
      const response = await fetch(`${ctx.adminUrl}/admin/webhook-endpoints`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ctx.adminToken}`,
          'content-type': 'application/json',
          'x-hookrail-operator': 'chaos',
        },
        body: JSON.stringify({
          url: `${ctx.providerUrls[RECEIVER]}/hooks/${endpoint.name}`,
          eventTypes: TYPES,
          ordered: endpoint.ordered,
          description: `chaos run, ${endpoint.ordered ? 'ordered' : 'unordered'}`,
        }),
      });
      const body = (await response.json()) as { id: string; secret: string };
      if (response.status !== 201) throw new Error(`creating the ${endpoint.name} endpoint: ${JSON.stringify(body)}`);
      Object.assign(endpoint, { id: body.id, secret: body.secret });
    }
  },
  handles: (event) => TYPES.includes(event.type),
  async inHand(ctx) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE state IN ('pending', 'sending')`,
    );
    return rows[0].n;
  },
  async check(ctx) {
    const response = await fetch(`${ctx.providerUrls[RECEIVER]}/v1/webhooks`);
    const { data: received } = (await response.json()) as { data: Received[] };
    const rows: InvariantRow[] = [];
    for (const endpoint of ENDPOINTS) rows.push(...(await endpointRows(ctx, endpoint, received)));
    return rows;
  },
};

async function endpointRows(ctx: CheckContext, endpoint: Endpoint, all: Received[]): Promise<InvariantRow[]> {
  const label = `webhooks (${endpoint.name} endpoint)`;
  const path = `/hooks/${endpoint.name}`;
  const received = all.filter((request) => request.path === path);
  const acceptedAt = new Map<string, number>();
  received.forEach((request, index) => {
    if (request.status < 300 && !acceptedAt.has(request.webhookId)) acceptedAt.set(request.webhookId, index);
  });
  const expectedIds = new Set(ctx.expected.map((event) => event.id));
  const unsigned = received
    .filter((request) => !verifies(request, endpoint.secret!))
    .map((request) => request.webhookId);
  const deliveries = (
    await ctx.db.query<{ event_id: string; state: string }>(
      `SELECT event_id, state FROM webhook_deliveries WHERE endpoint_id = $1`,
      [endpoint.id],
    )
  ).rows;
  const stateOf = new Map<string, string[]>();
  for (const row of deliveries) stateOf.set(row.event_id, [...(stateOf.get(row.event_id) ?? []), row.state]);
  const resent = received.length - acceptedAt.size - received.filter((request) => request.status >= 300).length;
  const rows = [
    noneRow(
      `${label}: each expected event received 2xx (${ctx.expected.length}; ${received.length} requests, ${resent} sent again)`,
      'events not received',
      ctx.expected.filter((event) => !acceptedAt.has(event.id)).map((event) => `${event.webhookId} (${event.id})`),
    ),
    noneRow(
      `${label}: nothing else sent`,
      'stray webhooks',
      [...acceptedAt.keys()].filter((id) => !expectedIds.has(id)),
    ),
    noneRow(`${label}: every request verifies (standardwebhooks, the endpoint's secret)`, 'unverified', unsigned),
    noneRow(
      `${label}: one delivery per event, delivered`,
      'events without one delivered row',
      ctx.expected
        .filter((event) => stateOf.get(event.id)?.join() !== 'delivered')
        .map((event) => `${event.webhookId}: ${stateOf.get(event.id)?.join('/') ?? 'no delivery'}`),
    ),
  ];
  if (endpoint.ordered)
    rows.push(
      orderRow(
        `${label}: an order's events first received in sequence`,
        ctx.expected,
        (event) => acceptedAt.get(event.id),
        true,
      ),
    );
  return rows;
}

/**
 * The signature the library computes for the request's id, timestamp and body is among those it carries. (Not
 * `verify`: its five-minute tolerance is for live requests, and a long run checks requests older than that.)
 */
function verifies(request: Received, secret: string): boolean {
  const timestamp = Number(request.webhookTimestamp);
  if (!Number.isInteger(timestamp)) return false;
  const expected = new Webhook(secret).sign(request.webhookId, new Date(timestamp * 1000), request.body);
  return request.webhookSignature.split(' ').includes(expected);
}

/** What lets an endpoint point at the receiver on the loopback (the SSRF rules refuse it otherwise). */
function allowReceiver(urls: Readonly<Record<string, string>>): Record<string, string> {
  return {
    OUTBOUND_WEBHOOKS_ALLOW_HOSTS: '127.0.0.1',
    OUTBOUND_WEBHOOKS_ALLOW_HTTP: 'true',
    OUTBOUND_WEBHOOKS_ALLOW_PORTS: new URL(urls[RECEIVER]).port,
  };
}
