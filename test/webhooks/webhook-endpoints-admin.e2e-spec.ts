import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Ingress, orderData, post, secrets, startIngress } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';

const ADMIN_TOKEN = 'admin-token-for-the-webhook-endpoints-test';

describe('/admin/webhook-endpoints (real ingress and Postgres)', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    // hooks.test is allow-listed by name, so endpoints can be created without resolving anything.
    ingress = await startIngress({ ADMIN_TOKEN, OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test' });
  });

  afterAll(async () => {
    await ingress?.close();
  });

  async function call(
    method: string,
    path: string,
    { token = ADMIN_TOKEN as string | null, body = undefined as unknown, raw = undefined as string | undefined } = {},
  ) {
    const headers: Record<string, string> = { 'x-hookrail-operator': 'ada' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${ingress.adminUrl}${path}`, {
      method,
      headers,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any, text };
  }

  const count = async (table: string) =>
    (await ingress.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  const tables = async () => ({
    endpoints: await count('webhook_endpoints'),
    secrets: await count('webhook_endpoint_secrets'),
    audit: await count('operator_audit'),
  });

  async function create(body: Record<string, unknown> = {}) {
    const created = await call('POST', '/admin/webhook-endpoints', {
      body: { url: 'https://hooks.test/orders', eventTypes: ['shop.order.*'], ...body },
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string } & Record<string, unknown>;
  }

  it('answers 401 without the token or with a wrong one, on every route, and changes nothing', async () => {
    const id = randomUUID();
    const before = await tables();
    const routes: Array<[string, string, unknown?]> = [
      ['POST', '/admin/webhook-endpoints', { url: 'https://hooks.test/a', eventTypes: ['*'] }],
      ['GET', '/admin/webhook-endpoints'],
      ['GET', `/admin/webhook-endpoints/${id}`],
      ['POST', `/admin/webhook-endpoints/${id}/disable`, {}],
      ['POST', `/admin/webhook-endpoints/${id}/enable`, {}],
      ['POST', `/admin/webhook-endpoints/${id}/rotate-secret`, {}],
      ['DELETE', `/admin/webhook-endpoints/${id}`],
      ['GET', `/admin/webhook-endpoints/${id}/deliveries`],
      ['GET', `/admin/webhook-endpoints/${id}/deliveries/1`],
      ['POST', `/admin/webhook-endpoints/${id}/deliveries/1/replay`, {}],
      ['POST', `/admin/webhook-endpoints/${id}/deliveries/1/retry`, {}],
      ['POST', `/admin/webhook-endpoints/${id}/replay`, { since: '1h' }],
      ['GET', `/admin/webhook-endpoints/${id}/audit`],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [null, 'wrong-token', `${ADMIN_TOKEN}x`]) {
        const answer = await call(method, path, { token, body });
        expect({ method, path, token, status: answer.status, error: answer.body?.error }).toEqual({
          method,
          path,
          token,
          status: 401,
          error: 'unauthorized',
        });
      }
    }
    expect(await tables()).toEqual(before);
  });

  it('creates an endpoint and shows its secret in that answer only; listings never carry a secret; audited', async () => {
    const created = await create({ description: 'orders for the warehouse', ordered: true, rateLimitPerSecond: 20 });
    expect(created).toMatchObject({
      url: 'https://hooks.test/orders',
      description: 'orders for the warehouse',
      eventTypes: ['shop.order.*'],
      state: 'enabled',
      ordered: true,
      rateLimitPerSecond: 20,
      maxInFlight: null,
      queue: { pending: 0, sending: 0 },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(() => new Webhook(created.secret)).not.toThrow();
    expect(created.secrets).toEqual([{ id: expect.any(String), createdAt: expect.any(String), expiresAt: null }]);

    const listed = await call('GET', '/admin/webhook-endpoints');
    const shown = await call('GET', `/admin/webhook-endpoints/${created.id}`);
    const audit = await call('GET', `/admin/webhook-endpoints/${created.id}/audit`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((endpoint: { id: string }) => endpoint.id)).toContain(created.id);
    expect(shown.body).toMatchObject({ id: created.id, state: 'enabled' });
    expect(shown.body).not.toHaveProperty('secret');
    for (const answer of [listed, shown, audit]) expect(answer.text).not.toContain(created.secret.slice(6));
    expect(audit.body).toEqual([
      expect.objectContaining({ actor: 'admin:ada', action: 'create', subjectId: created.id, count: 1 }),
    ]);
  });

  it('refuses bad input with a 400 naming what is wrong, and writes nothing', async () => {
    const before = await tables();
    const cases: Array<[unknown, RegExp]> = [
      [{ eventTypes: ['*'] }, /^url: /],
      [{ url: 'https://hooks.test/a' }, /^eventTypes: /],
      [{ url: 'https://hooks.test/a', eventTypes: [] }, /eventTypes must list at least one/],
      [{ url: 'https://hooks.test/a', eventTypes: ['shop.*.placed'] }, /each event type must be a type/],
      [{ url: 'https://hooks.test/a', eventTypes: ['*'], rateLimitPerSecond: 0 }, /^rateLimitPerSecond: /],
      [{ url: 'https://hooks.test/a', eventTypes: ['*'], ordered: 'yes' }, /^ordered: /],
      [{ url: 'https://hooks.test/a', eventTypes: ['*'], secret: 'whsec_mine' }, /^unknown field "secret"$/],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '/admin/webhook-endpoints', { body });
      expect({ body, status: answer.status, error: answer.body.error }).toEqual({
        body,
        status: 400,
        error: 'malformed_request',
      });
      expect(answer.body.message).toMatch(message);
    }
    expect((await call('POST', '/admin/webhook-endpoints', { raw: '{not json' })).status).toBe(400);
    expect((await call('POST', '/admin/webhook-endpoints', { raw: '[1]' })).body.message).toBe(
      'the body must be a JSON object',
    );
    expect((await call('GET', '/admin/webhook-endpoints/not-a-uuid')).status).toBe(404);
    expect((await call('GET', `/admin/webhook-endpoints/${randomUUID()}`)).status).toBe(404);
    expect(await tables()).toEqual(before);
  });

  it('refuses URLs that reach the operator network, each with its reason, unless allow-listed', async () => {
    const before = await tables();
    const refused: Array<[string, string]> = [
      ['https://127.0.0.1/hook', '127.0.0.1 is a loopback address (127.0.0.0/8)'],
      ['https://10.0.0.1/hook', '10.0.0.1 is a private address (10.0.0.0/8)'],
      ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
      ['https://[::1]/hook', '::1 is a loopback address (::1/128)'],
      ['https://[fd00::1]/hook', 'fd00::1 is a unique-local address (fc00::/7)'],
      ['https://[::ffff:10.0.0.1]/hook', '::ffff:a00:1 is an IPv4-mapped private address (10.0.0.0/8)'],
      ['https://localhost/hook', 'localhost resolves to'],
      ['http://localhost/hook', 'only https URLs are allowed (http needs OUTBOUND_WEBHOOKS_ALLOW_HTTP=true)'],
      ['http://hooks.test/hook', 'only https URLs are allowed'],
      [
        'https://10.0.0.1:6379/',
        'port 6379 is not allowed (only 443, or a port listed in OUTBOUND_WEBHOOKS_ALLOW_PORTS)',
      ],
      ['https://user:pass@hooks.test/', 'credentials in the URL are not allowed'],
      ['gopher://hooks.test/', 'the scheme gopher is not allowed; use https'],
    ];
    for (const [url, reason] of refused) {
      const answer = await call('POST', '/admin/webhook-endpoints', { body: { url, eventTypes: ['*'] } });
      expect({ url, status: answer.status, error: answer.body.error }).toEqual({
        url,
        status: 400,
        error: 'url_refused',
      });
      expect(answer.body.reason).toContain(reason);
    }
    expect(await tables()).toEqual(before);
    expect((await create({ url: 'https://hooks.test:8443/any-port-when-allow-listed' })).url).toBe(
      'https://hooks.test:8443/any-port-when-allow-listed',
    );
  });

  it('disables and enables (409 when already so), rotates the secret with an overlap, deletes; each change audited', async () => {
    const { id, secret } = await create();
    expect(
      (await call('POST', `/admin/webhook-endpoints/${id}/disable`, { body: { reason: 'maintenance' } })).body,
    ).toMatchObject({ state: 'disabled', disabledReason: 'disabled by admin:ada: maintenance' });
    expect((await call('POST', `/admin/webhook-endpoints/${id}/disable`, { body: {} })).status).toBe(409);
    expect((await call('POST', `/admin/webhook-endpoints/${id}/enable`)).body).toMatchObject({ state: 'enabled' });
    expect((await call('POST', `/admin/webhook-endpoints/${id}/enable`)).status).toBe(409);

    const rotated = await call('POST', `/admin/webhook-endpoints/${id}/rotate-secret`, {
      body: { overlapSeconds: 3600 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    expect(rotated.body.secrets).toHaveLength(2);
    expect(rotated.body.secrets.filter((s: { expiresAt: string | null }) => s.expiresAt !== null)).toHaveLength(1);
    const [stored] = await ingress.query<{ secrets: string[] }>(
      `SELECT array_agg(secret ORDER BY created_at) AS secrets FROM webhook_endpoint_secrets WHERE endpoint_id = $1`,
      [id],
    );
    expect(stored.secrets).toEqual([secret, rotated.body.secret]);
    const immediate = await call('POST', `/admin/webhook-endpoints/${id}/rotate-secret`, {
      body: { overlapSeconds: 0 },
    });
    expect(immediate.body.secrets).toHaveLength(1);
    expect(
      (await call('POST', `/admin/webhook-endpoints/${id}/rotate-secret`, { body: { overlapSeconds: -1 } })).status,
    ).toBe(400);

    expect((await call('DELETE', `/admin/webhook-endpoints/${id}`)).body).toEqual({ deleted: id });
    expect((await call('GET', `/admin/webhook-endpoints/${id}`)).status).toBe(404);
    const audit = await ingress.query<{ action: string; actor: string }>(
      `SELECT action, actor FROM operator_audit WHERE subject_id = $1 ORDER BY id`,
      [id],
    );
    expect(audit.map((row) => row.action)).toEqual([
      'create',
      'disable',
      'enable',
      'rotate-secret',
      'rotate-secret',
      'delete',
    ]);
    expect(new Set(audit.map((row) => row.actor))).toEqual(new Set(['admin:ada']));
    const details = await ingress.query<{ details: unknown }>(
      `SELECT details FROM operator_audit WHERE subject_id = $1`,
      [id],
    );
    expect(JSON.stringify(details)).not.toContain('whsec_');
  });

  it('shows the delivery log with filters and attempts, replays one, and replays every one (or the failed ones) since a time', async () => {
    const { id } = await create();
    const seed = async (eventType: string, state: string, createdAgo: string) => {
      const [row] = await ingress.query<{ id: string }>(
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                         source_topic, source_partition, source_offset, state, attempts, last_status, created_at)
         VALUES ($1, $2, $3, '/tests', now(), 'ord_1', '{"n":1}', 'shop.orders', 0, '0', $4, 8, 503, now() - $5::interval)
         RETURNING id::text`,
        [id, randomUUID(), eventType, state, createdAgo],
      );
      return row.id;
    };
    const oldFailure = await seed('shop.order.placed.v1', 'failed', '3 hours');
    const failures = [
      await seed('shop.order.placed.v1', 'failed', '50 minutes'),
      await seed('shop.order.paid.v1', 'failed', '10 minutes'),
    ];
    const delivered = await seed('shop.order.paid.v1', 'delivered', '5 minutes');
    await ingress.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, latency_ms, status, response_body, error, worker)
       VALUES ($1, 1, now(), 12, 503, 'busy', 'HTTP 503', 'host/1')`,
      [failures[1]],
    );

    const all = await call('GET', `/admin/webhook-endpoints/${id}/deliveries`);
    expect(all.body.map((delivery: { id: string }) => delivery.id)).toEqual([
      delivered,
      failures[1],
      failures[0],
      oldFailure,
    ]);
    const filtered = await call(
      'GET',
      `/admin/webhook-endpoints/${id}/deliveries?status=failed&eventType=shop.order.paid.v1&since=1h`,
    );
    expect(filtered.body.map((delivery: { id: string }) => delivery.id)).toEqual([failures[1]]);
    expect((await call('GET', `/admin/webhook-endpoints/${id}/deliveries?status=lost`)).body.error).toBe(
      'malformed_request',
    );
    expect((await call('GET', `/admin/webhook-endpoints/${id}/deliveries?since=yesterday`)).body.message).toMatch(
      /^since "yesterday"/,
    );
    const one = await call('GET', `/admin/webhook-endpoints/${id}/deliveries/${failures[1]}`);
    expect(one.body).toMatchObject({
      id: failures[1],
      state: 'failed',
      payload: '{"n":1}',
      attemptLog: [
        { attempt: 1, status: 503, latencyMs: 12, responseBody: 'busy', error: 'HTTP 503', worker: 'host/1' },
      ],
    });

    const dryRun = await call('POST', `/admin/webhook-endpoints/${id}/replay`, { body: { since: '1h', dryRun: true } });
    expect(dryRun.body).toMatchObject({ dryRun: true, matched: 3, replayed: [] });
    expect(dryRun.body.candidates.map((delivery: { id: string }) => delivery.id)).toEqual([...failures, delivered]);
    const failedOnly = await call('POST', `/admin/webhook-endpoints/${id}/replay`, {
      body: { since: '1h', status: 'failed', dryRun: true },
    });
    expect(failedOnly.body.candidates.map((delivery: { id: string }) => delivery.id)).toEqual(failures);
    const badStatus = await call('POST', `/admin/webhook-endpoints/${id}/replay`, {
      body: { since: '1h', status: 'pending' },
    });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.message).toContain('status must be one of delivered, failed');
    const states = async () =>
      (
        await ingress.query<{ id: string; state: string }>(
          `SELECT id::text, state FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id`,
          [id],
        )
      ).map((row) => `${row.id}:${row.state}`);
    expect(await states()).toEqual([
      `${oldFailure}:failed`,
      `${failures[0]}:failed`,
      `${failures[1]}:failed`,
      `${delivered}:delivered`,
    ]);

    const replay = await call('POST', `/admin/webhook-endpoints/${id}/replay`, {
      body: { since: '1h', status: 'failed' },
    });
    expect(replay.body).toEqual({ dryRun: false, matched: 2, replayed: failures });
    expect(await states()).toEqual([
      `${oldFailure}:failed`,
      `${failures[0]}:pending`,
      `${failures[1]}:pending`,
      `${delivered}:delivered`,
    ]);
    expect((await call('POST', `/admin/webhook-endpoints/${id}/deliveries/${failures[0]}/replay`)).status).toBe(409);
    expect((await call('POST', `/admin/webhook-endpoints/${id}/deliveries/${delivered}/replay`)).body).toEqual({
      dryRun: false,
      matched: 1,
      replayed: [delivered],
    });
    expect((await call('POST', `/admin/webhook-endpoints/${id}/replay`, { body: {} })).body.message).toMatch(
      /^since: /,
    );
    const audit = await call('GET', `/admin/webhook-endpoints/${id}/audit`);
    expect(audit.body.map((entry: { action: string; count: number }) => [entry.action, entry.count])).toEqual([
      ['replay', 1],
      ['replay', 2],
      ['create', 1],
    ]);
  });

  it('retries a pending delivery now: due at once, its attempts kept; 409 for the others, saying what to do', async () => {
    const { id } = await create({ url: 'https://hooks.test/retry-now' });
    const seed = async (state: string) => {
      const [row] = await ingress.query<{ id: string }>(
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                         source_topic, source_partition, source_offset, state, attempts, next_attempt_at,
                                         lease_until, last_status, last_error)
         VALUES ($1, $2, 'shop.order.placed.v1', '/tests', now(), 'ord_1', '{}', 'shop.orders', 0, '0', $3::varchar, 2,
                 now() + interval '5 minutes', CASE WHEN $3::varchar = 'sending' THEN now() + interval '30 seconds' END, 503, 'HTTP 503')
         RETURNING id::text`,
        [id, randomUUID(), state],
      );
      return row.id;
    };
    const [waiting, sending, delivered] = [await seed('pending'), await seed('sending'), await seed('delivered')];
    const due = async (delivery: string) =>
      (
        await ingress.query<{ due: boolean; attempts: number; replay_count: number }>(
          `SELECT next_attempt_at <= now() AS due, attempts, replay_count FROM webhook_deliveries WHERE id = $1`,
          [delivery],
        )
      )[0];

    // A replay of a waiting delivery is refused, and says how to send it now.
    const replay = await call('POST', `/admin/webhook-endpoints/${id}/deliveries/${waiting}/replay`);
    expect(replay.status).toBe(409);
    expect(replay.body.message).toMatch(
      new RegExp(
        `^delivery ${waiting} is pending \\(its next attempt is due at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\): ` +
          'it is already queued; retry it to send it now$',
      ),
    );

    const retried = await call('POST', `/admin/webhook-endpoints/${id}/deliveries/${waiting}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ id: waiting, state: 'pending', attempts: 2, nextAttemptAt: expect.any(String) });
    expect(new Date(retried.body.nextAttemptAt).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await due(waiting)).toEqual({ due: true, attempts: 2, replay_count: 0 });

    const refused = async (delivery: string) => {
      const answer = await call('POST', `/admin/webhook-endpoints/${id}/deliveries/${delivery}/retry`);
      expect(answer.status).toBe(409);
      return answer.body.message;
    };
    expect(await refused(sending)).toBe(`delivery ${sending} is sending: an attempt is in flight`);
    expect(await refused(delivered)).toBe(`delivery ${delivered} is delivered; replay it to send it again`);
    expect(await due(sending)).toMatchObject({ due: false });

    await call('POST', `/admin/webhook-endpoints/${id}/disable`, { body: {} });
    const later = await seed('pending');
    expect(await refused(later)).toBe(
      `endpoint ${id} is disabled: its deliveries wait until it is enabled, which sends them at once`,
    );
    expect(await due(later)).toMatchObject({ due: false });
    expect((await call('POST', `/admin/webhook-endpoints/${id}/deliveries/999999/retry`)).status).toBe(404);
    const audit = await call('GET', `/admin/webhook-endpoints/${id}/audit`);
    expect(audit.body[1]).toMatchObject({ actor: 'admin:ada', action: 'retry', affectedIds: [waiting], count: 1 });
  });

  it('lists an event’s deliveries in GET /events/:id', async () => {
    const { id: endpointId } = await create({ url: 'https://hooks.test/status' });
    const body = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData(),
    });
    const accepted = await post(
      `${ingress.url}/webhooks/shop`,
      body,
      standardHeaders(secrets.standard[0], `msg_${randomUUID()}`, body),
    );
    expect(accepted.status).toBe(202);
    const eventId = accepted.body.id as string;
    expect(
      (await (await fetch(`${ingress.url}/events/${eventId}`, { headers: await ingress.viewer() })).json()) as object,
    ).not.toHaveProperty('webhookDeliveries');
    await ingress.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                       source_topic, source_partition, source_offset, state, attempts, last_status, last_error)
       VALUES ($1, $2, 'shop.order.placed.v1', '/webhooks/shop', now(), 'ord_1', '{}', 'shop.orders', 0, '7', 'pending', 2, 503, 'HTTP 503')`,
      [endpointId, eventId],
    );
    const status = (await (
      await fetch(`${ingress.url}/events/${eventId}`, { headers: await ingress.viewer() })
    ).json()) as Record<string, unknown>;
    expect(status.webhookDeliveries).toEqual([
      {
        endpointId,
        url: 'https://hooks.test/status',
        status: 'pending',
        attempts: 2,
        lastStatus: 503,
        lastError: 'HTTP 503',
        deliveredAt: null,
        updatedAt: expect.any(String),
      },
    ]);
  });
});
