import { apiCall, Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-customers-admin-test';

/** The operator's side of customers: create, list, tokens, portal links, delete (cascading), and who may. */
describe('/admin/customers (real Postgres)', () => {
  let ingress: Ingress;
  let viewer: string;

  const call = (token: string, method: string, path: string, body?: unknown) =>
    apiCall(ingress.adminUrl, method, path, { token, body, operator: 'ada' });
  const admin = (method: string, path: string, body?: unknown) => call(ADMIN_TOKEN, method, path, body);
  const count = async (table: string) =>
    (await ingress.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

  beforeAll(async () => {
    ingress = await startIngress({
      ADMIN_TOKEN,
      OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test',
      PORTAL_PUBLIC_URL: 'https://portal.example.com',
    });
    viewer = (await admin('POST', '/admin/tokens', { name: 'viewer', role: 'viewer' })).body.token;
  });

  afterAll(async () => {
    await ingress?.close();
  });

  it('creates, lists and shows customers with their endpoint counts; refuses a taken uid and bad input', async () => {
    const created = await admin('POST', '/admin/customers', { uid: 'acme', name: 'Acme Corp' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ uid: 'acme', name: 'Acme Corp', endpoints: 0 });
    expect((await admin('POST', '/admin/customers', { uid: 'acme', name: 'Again' })).status).toBe(409);
    const bad = await admin('POST', '/admin/customers', { uid: 'a b', name: 'x' });
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('uid') } });
    expect((await admin('POST', '/admin/customers', { uid: 'x', name: 'x', extra: 1 })).status).toBe(400);

    const endpoint = await admin('POST', '/admin/webhook-endpoints', {
      url: 'https://hooks.test/acme',
      eventTypes: ['*'],
      customerId: created.body.id,
      payloadFilters: [{ path: '/region', equals: 'eu' }],
    });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body).toMatchObject({
      customerId: created.body.id,
      payloadFilters: [{ path: '/region', equals: 'eu' }],
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    const endpoints = await count('webhook_endpoints');
    const unknown = await admin('POST', '/admin/webhook-endpoints', {
      url: 'https://hooks.test/x',
      eventTypes: ['*'],
      customerId: missing,
    });
    expect(unknown).toMatchObject({ status: 400, body: { message: expect.stringContaining(missing) } });
    expect(await count('webhook_endpoints')).toBe(endpoints);

    const list = await call(viewer, 'GET', '/admin/customers');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ uid: 'acme', endpoints: 1 })]);
    expect((await call(viewer, 'GET', `/admin/customers/${created.body.id}`)).body.endpoints).toBe(1);
    expect((await admin('GET', '/admin/customers/acme')).body.id).toBe(created.body.id);
    expect((await admin('GET', `/admin/customers/${missing}`)).status).toBe(404);
  });

  it('issues tokens shown once (90 days by default, a year at most), lists them without it, revokes by name', async () => {
    const issued = await admin('POST', '/admin/customers/acme/tokens', { name: 'ci' });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({
      token: expect.stringMatching(/^hrc_[A-Za-z0-9_-]{43}$/),
      name: 'ci',
      expiresAt: expect.any(String),
    });
    const days = (new Date(issued.body.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    expect((await admin('POST', '/admin/customers/acme/tokens', { name: 'ci' })).status).toBe(409);
    expect((await admin('POST', '/admin/customers/acme/tokens', { name: 'long', expires: '400d' })).status).toBe(400);
    expect((await admin('POST', '/admin/customers/acme/tokens', { name: 'short', expires: '30d' })).status).toBe(201);

    const list = await admin('GET', '/admin/customers/acme/tokens');
    expect(list.body.map((token: { name: string }) => token.name)).toEqual(['short', 'ci']);
    expect(JSON.stringify(list.body)).not.toContain(issued.body.token);
    expect(JSON.stringify(list.body)).not.toContain('hash');
    expect((await admin('POST', '/admin/customers/acme/tokens/ci/revoke')).status).toBe(200);
    expect((await admin('POST', '/admin/customers/acme/tokens/ci/revoke')).status).toBe(404);
    expect((await admin('GET', '/admin/customers/acme/tokens')).body[1]).toMatchObject({
      name: 'ci',
      state: 'revoked',
    });
  });

  it('makes portal links under PORTAL_PUBLIC_URL, 15 minutes by default, at most 60', async () => {
    const link = await admin('POST', '/admin/customers/acme/portal-links', {});
    expect(link.status).toBe(201);
    expect(link.body.url).toMatch(/^https:\/\/portal\.example\.com\/portal#link=hrc_/);
    expect(Math.round((new Date(link.body.expiresAt).getTime() - Date.now()) / 60_000)).toBe(15);
    expect((await admin('POST', '/admin/customers/acme/portal-links', { expiresInMinutes: 61 })).status).toBe(400);
  });

  it('lets a viewer read but not create a customer, a token or a link', async () => {
    const before = { customers: await count('webhook_customers'), tokens: await count('customer_tokens') };
    for (const [path, body] of [
      ['/admin/customers', { uid: 'nope', name: 'Nope' }],
      ['/admin/customers/acme/tokens', { name: 'nope' }],
      ['/admin/customers/acme/portal-links', {}],
    ] as const) {
      const answer = await call(viewer, 'POST', path, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
    expect((await call(viewer, 'DELETE', '/admin/customers/acme')).status).toBe(403);
    expect((await call(viewer, 'GET', '/admin/customers/acme/tokens')).status).toBe(403);
    expect({ customers: await count('webhook_customers'), tokens: await count('customer_tokens') }).toEqual(before);
  });

  it('deletes a customer with its endpoints and tokens, audited', async () => {
    const { id } = (await admin('GET', '/admin/customers/acme')).body;
    const deleted = await admin('DELETE', `/admin/customers/${id}`);
    expect(deleted).toEqual({ status: 200, body: { deleted: id, endpoints: 1 } });
    expect(await count('webhook_customers')).toBe(0);
    expect(await count('customer_tokens')).toBe(0);
    expect(await ingress.query(`SELECT id FROM webhook_endpoints WHERE customer_id = $1`, [id])).toEqual([]);
    const audit = await ingress.query<{ actor: string; action: string }>(
      `SELECT actor, action FROM operator_audit WHERE subject_type = 'webhook-customer' ORDER BY id`,
    );
    expect(audit.map((row) => row.action)).toEqual([
      'create',
      'token-created',
      'token-created',
      'token-revoked',
      'portal-link-created',
      'delete',
    ]);
    expect(new Set(audit.map((row) => row.actor))).toEqual(new Set(['admin:ada']));
  });
});
