import { apiCall, Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-customer-api-test';

/** The customer API on its own listener: each customer sees and changes its own endpoints and deliveries only. */
describe('/customer/v1: two customers, isolated from each other and from the operator', () => {
  let ingress: Ingress;
  const tokens: Record<'a' | 'b', string> = { a: '', b: '' };
  const endpoints: Record<'a' | 'b' | 'operator', string> = { a: '', b: '', operator: '' };
  const deliveries: Record<'a' | 'b', string> = { a: '', b: '' };

  const call = (base: string, token: string | null, method: string, path: string, body?: unknown) =>
    apiCall(base, method, path, { token, body });
  const admin = (method: string, path: string, body?: unknown) =>
    call(ingress.adminUrl, ADMIN_TOKEN, method, path, body);
  const as = (who: 'a' | 'b' | string, method: string, path: string, body?: unknown) =>
    call(ingress.portalUrl, who === 'a' || who === 'b' ? tokens[who] : who, method, path, body);

  async function insertDelivery(endpointId: string, eventId: string): Promise<string> {
    const [row] = await ingress.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
         source_topic, source_partition, source_offset, state, attempts, delivered_at, last_status)
       VALUES ($1, $2, 'shop.order.placed.v1', 'shop', now(), 'ord_1', '{"orderId":"ord_1"}', 'shop.orders', 0, '1',
         'delivered', 1, now(), 200)
       RETURNING id::text`,
      [endpointId, eventId],
    );
    await ingress.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, latency_ms, status, response_body, worker)
       VALUES ($1, 1, now(), 42, 200, 'ok', 'worker-1')`,
      [row.id],
    );
    return row.id;
  }

  /** Everything a refused request must leave as it was. */
  const snapshot = async () => ({
    endpoints: await ingress.query(
      `SELECT id, customer_id, url, state, event_types, description, updated_at FROM webhook_endpoints ORDER BY id`,
    ),
    secrets: await ingress.query(`SELECT id, endpoint_id, expires_at FROM webhook_endpoint_secrets ORDER BY id`),
    deliveries: await ingress.query(
      `SELECT id, endpoint_id, state, replay_count, updated_at FROM webhook_deliveries ORDER BY id`,
    ),
    audit: await ingress.query(`SELECT count(*)::int AS n FROM operator_audit`),
  });

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN, OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test' });
    for (const who of ['a', 'b'] as const) {
      const customer = await admin('POST', '/admin/customers', { uid: `cust-${who}`, name: `Customer ${who}` });
      expect(customer.status).toBe(201);
      const token = await admin('POST', `/admin/customers/${customer.body.id}/tokens`, { name: 'ci' });
      expect(token.status).toBe(201);
      tokens[who] = token.body.token;
      const endpoint = await as(who, 'POST', '/customer/v1/endpoints', {
        url: `https://hooks.test/${who}`,
        eventTypes: ['shop.order.*'],
      });
      expect(endpoint.status).toBe(201);
      expect(endpoint.body.secret).toMatch(/^whsec_/);
      endpoints[who] = endpoint.body.id;
      deliveries[who] = await insertDelivery(endpoints[who], `evt_${who}`);
    }
    const operator = await admin('POST', '/admin/webhook-endpoints', {
      url: 'https://hooks.test/operator',
      eventTypes: ['*'],
    });
    expect(operator.status).toBe(201);
    expect(operator.body.customerId).toBeNull();
    endpoints.operator = operator.body.id;
    await insertDelivery(endpoints.operator, 'evt_operator');
  });

  afterAll(async () => {
    await ingress?.close();
  });

  const routes = (endpoint: string, delivery: string): Array<[string, string, unknown?]> => [
    ['GET', `/customer/v1/endpoints/${endpoint}`],
    ['PATCH', `/customer/v1/endpoints/${endpoint}`, { description: 'taken over' }],
    ['POST', `/customer/v1/endpoints/${endpoint}/disable`, {}],
    ['POST', `/customer/v1/endpoints/${endpoint}/enable`, {}],
    ['POST', `/customer/v1/endpoints/${endpoint}/rotate-secret`, {}],
    ['DELETE', `/customer/v1/endpoints/${endpoint}`],
    ['POST', `/customer/v1/endpoints/${endpoint}/test`, {}],
    ['GET', `/customer/v1/endpoints/${endpoint}/deliveries`],
    ['GET', `/customer/v1/endpoints/${endpoint}/deliveries/${delivery}`],
    ['POST', `/customer/v1/endpoints/${endpoint}/deliveries/${delivery}/replay`, {}],
    ['POST', `/customer/v1/endpoints/${endpoint}/replay`, { since: '1h' }],
  ];

  it("answers 404 for the other customer's endpoints and deliveries, and for the operator's, changing nothing", async () => {
    const before = await snapshot();
    const cases: Array<[string, string, string]> = [
      ['a', endpoints.b, deliveries.b],
      ['b', endpoints.a, deliveries.a],
      ['a', endpoints.operator, deliveries.b],
      // a's own endpoint with b's delivery: the delivery is not found either.
      ['a', endpoints.a, deliveries.b],
    ];
    for (const [who, endpoint, delivery] of cases)
      for (const [method, path, body] of routes(endpoint, delivery)) {
        if (endpoint === endpoints.a && !path.includes('/deliveries/')) continue;
        const answer = await as(who, method, path, body);
        expect({ who, method, path, status: answer.status, error: answer.body?.error }).toEqual({
          who,
          method,
          path,
          status: 404,
          error: 'not_found',
        });
      }
    expect(await snapshot()).toEqual(before);
  });

  it("lists only the caller's own endpoints and deliveries", async () => {
    for (const who of ['a', 'b'] as const) {
      const list = await as(who, 'GET', '/customer/v1/endpoints');
      expect(list.status).toBe(200);
      expect(list.body.map((endpoint: { id: string }) => endpoint.id)).toEqual([endpoints[who]]);
      const log = await as(who, 'GET', `/customer/v1/endpoints/${endpoints[who]}/deliveries?limit=10`);
      expect(log.body.map((delivery: { id: string }) => delivery.id)).toEqual([deliveries[who]]);
      const one = await as(who, 'GET', `/customer/v1/endpoints/${endpoints[who]}/deliveries/${deliveries[who]}`);
      expect(one.status).toBe(200);
      expect(one.body.attemptsLog).toEqual([
        { attempt: 1, at: expect.any(String), durationMs: 42, status: 200, responseExcerpt: 'ok', error: null },
      ]);
      expect(JSON.stringify(one.body)).not.toContain('worker');
    }
    const me = await as('a', 'GET', '/customer/v1/me');
    expect(me.body).toEqual({
      customer: { uid: 'cust-a', name: 'Customer a' },
      token: { name: 'ci', kind: 'api', expiresAt: expect.any(String) },
    });
    const types = await as('a', 'GET', '/customer/v1/event-types');
    expect(types.status).toBe(200);
    expect(types.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'shop.order.placed.v1', schema: expect.objectContaining({}) }),
      ]),
    );
  });

  it("changes its own endpoint, sends a test delivery and replays its own, audited as the customer's token", async () => {
    const id = endpoints.a;
    const patched = await as('a', 'PATCH', `/customer/v1/endpoints/${id}`, {
      description: 'orders',
      payloadFilters: [{ path: '/region', equals: 'eu' }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: 'orders', payloadFilters: [{ path: '/region', equals: 'eu' }] });
    const refused = await as('a', 'PATCH', `/customer/v1/endpoints/${id}`, { payloadFilters: [{ path: 'region' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('payloadFilters[0].path');
    const ssrf = await as('a', 'PATCH', `/customer/v1/endpoints/${id}`, { url: 'http://127.0.0.1/x' });
    expect(ssrf.status).toBe(400);

    const test = await as('a', 'POST', `/customer/v1/endpoints/${id}/test`, {});
    expect(test.status).toBe(202);
    const [row] = await ingress.query<any>(
      `SELECT endpoint_id, event_type, state FROM webhook_deliveries WHERE id = $1`,
      [test.body.deliveryId],
    );
    expect(row).toEqual({ endpoint_id: id, event_type: 'hookrail.test.v1', state: 'pending' });

    const replay = await as('a', 'POST', `/customer/v1/endpoints/${id}/deliveries/${deliveries.a}/replay`, {});
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toEqual([deliveries.a]);
    const dry = await as('a', 'POST', `/customer/v1/endpoints/${id}/replay`, { since: '1h', dryRun: true });
    expect(dry.body).toMatchObject({ dryRun: true, replayed: [] });

    const rotated = await as('a', 'POST', `/customer/v1/endpoints/${id}/rotate-secret`, {});
    expect(Object.keys(rotated.body)).toEqual(['secret']);
    expect((await as('a', 'POST', `/customer/v1/endpoints/${id}/disable`, {})).body.state).toBe('disabled');
    expect((await as('a', 'POST', `/customer/v1/endpoints/${id}/enable`, {})).body.state).toBe('enabled');

    const actors = await ingress.query<{ actor: string; action: string }>(
      `SELECT DISTINCT actor, action FROM operator_audit WHERE subject_id = $1 ORDER BY action`,
      [id],
    );
    expect(actors.map((entry) => entry.actor)).toEqual(actors.map(() => 'customer:cust-a/ci'));
    expect(actors.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['create', 'update', 'test', 'replay', 'rotate-secret', 'disable', 'enable']),
    );
  });

  it('refuses a revoked, an expired and a malformed token at once (401), and a portal link as a bearer', async () => {
    const customer = (await admin('GET', '/admin/customers/cust-b')).body;
    const issue = async (name: string) =>
      (await admin('POST', `/admin/customers/${customer.id}/tokens`, { name })).body.token as string;
    const revoked = await issue('revoked');
    expect((await as(revoked, 'GET', '/customer/v1/me')).status).toBe(200);
    expect((await admin('POST', `/admin/customers/${customer.id}/tokens/revoked/revoke`)).status).toBe(200);
    const expired = await issue('expired');
    await ingress.query(`UPDATE customer_tokens SET expires_at = now() - interval '1 second' WHERE name = 'expired'`);
    const link = (await admin('POST', `/admin/customers/${customer.id}/portal-links`, {})).body.url.split('#link=')[1];
    const before = await snapshot();
    for (const [token, message] of [
      [revoked, 'revoked'],
      [expired, 'expired'],
      ['hrc_short', 'malformed'],
      ['not-a-token', 'malformed'],
      [`hrc_${'x'.repeat(43)}`, 'not valid'],
      [link, 'portal link'],
    ]) {
      for (const [method, path, body] of [
        ['GET', '/customer/v1/me'],
        ['GET', '/customer/v1/endpoints'],
        ['POST', '/customer/v1/endpoints', { url: 'https://hooks.test/x', eventTypes: ['*'] }],
        ...routes(endpoints.b, deliveries.b),
      ] as Array<[string, string, unknown?]>) {
        const answer = await as(token, method, path, body);
        expect({ path, status: answer.status, error: answer.body.error }).toEqual({
          path,
          status: 401,
          error: 'unauthorized',
        });
        expect(answer.body.message).toContain(message);
      }
    }
    expect((await call(ingress.portalUrl, null, 'GET', '/customer/v1/me')).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('opens a session from a portal link once; a used or expired link is refused naming which', async () => {
    const customer = (await admin('GET', '/admin/customers/cust-a')).body;
    const created = await admin('POST', `/admin/customers/${customer.id}/portal-links`, { expiresInMinutes: 5 });
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/^http:\/\/127\.0\.0\.1:3200\/portal#link=hrc_/);
    const link = created.body.url.split('#link=')[1];
    const [first, second] = [
      await call(ingress.portalUrl, null, 'POST', '/customer/v1/sessions', { link }),
      await call(ingress.portalUrl, null, 'POST', '/customer/v1/sessions', { link }),
    ];
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      token: expect.stringMatching(/^hrc_/),
      expiresAt: expect.any(String),
      customer: { uid: 'cust-a', name: 'Customer a' },
    });
    expect(new Date(first.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(3_500_000);
    expect(second).toMatchObject({ status: 401, body: { message: expect.stringContaining('was used at') } });
    const session = await as(first.body.token, 'GET', '/customer/v1/endpoints');
    expect(session.body.map((endpoint: { id: string }) => endpoint.id)).toEqual([endpoints.a]);
    expect((await as(first.body.token, 'GET', '/customer/v1/me')).body.token.kind).toBe('session');

    const late = (await admin('POST', `/admin/customers/${customer.id}/portal-links`, {})).body.url.split('#link=')[1];
    await ingress.query(
      `UPDATE customer_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'portal-link'`,
    );
    const expired = await call(ingress.portalUrl, null, 'POST', '/customer/v1/sessions', { link: late });
    expect(expired).toMatchObject({ status: 401, body: { message: expect.stringContaining('expired at') } });
    const unknown = await call(ingress.portalUrl, null, 'POST', '/customer/v1/sessions', {
      link: `hrc_${'y'.repeat(43)}`,
    });
    expect(unknown).toMatchObject({ status: 401, body: { message: expect.stringContaining('not valid') } });
    expect((await call(ingress.portalUrl, null, 'POST', '/customer/v1/sessions', {})).status).toBe(400);
  });
});

describe('/customer/v1 rate limit', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN, PORTAL_RATE_PER_MINUTE: '3' });
  });

  afterAll(async () => {
    await ingress?.close();
  });

  it('answers 429 with Retry-After past PORTAL_RATE_PER_MINUTE requests of one token', async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const customer = (await (
      await fetch(`${ingress.adminUrl}/admin/customers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ uid: 'busy', name: 'Busy' }),
      })
    ).json()) as { id: string };
    const token = async (name: string) =>
      (
        (await (
          await fetch(`${ingress.adminUrl}/admin/customers/${customer.id}/tokens`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name }),
          })
        ).json()) as { token: string }
      ).token;
    const [one, other] = [await token('one'), await token('other')];
    const me = (bearer: string) =>
      fetch(`${ingress.portalUrl}/customer/v1/me`, { headers: { authorization: `Bearer ${bearer}` } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await me(one)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await me(one);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: string }).error).toBe('rate_limited');
    expect((await me(other)).status).toBe(200);
  });
});
