import { randomUUID } from 'node:crypto';
import { apiCall, Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-roles-test';

interface Answer {
  status: number;
  body: any;
}

/** Roles and teams on the operator API: what each token may read and change, and what it is refused. */
describe('/admin with named tokens: viewer, a team operator, admin; revoked and expired tokens', () => {
  let ingress: Ingress;
  const tokens: Record<string, string> = {};
  const letters = { ledger: randomUUID(), payments: randomUUID() };

  const call = (token: string | undefined, method: string, path: string, body?: unknown): Promise<Answer> =>
    apiCall(ingress.adminUrl, method, path, { token: token ?? null, body });

  const asAdmin = (method: string, path: string, body?: unknown) => call(ADMIN_TOKEN, method, path, body);

  async function issue(name: string, fields: Record<string, unknown>): Promise<string> {
    const created = await asAdmin('POST', '/admin/tokens', { name, ...fields });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^hrk_/);
    return created.body.token;
  }

  /** What a refused request must leave as it was. */
  const snapshot = async () => ({
    letters: await ingress.query(`SELECT id, status, replay_count, updated_at FROM dead_letters ORDER BY id`),
    audit: await ingress.query(`SELECT count(*)::int AS n FROM operator_audit`),
    endpoints: await ingress.query(`SELECT id, state, url FROM webhook_endpoints ORDER BY id`),
  });

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN, OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test' });
    for (const [group, id] of Object.entries(letters))
      await ingress.query(
        `INSERT INTO dead_letters (id, "group", event_id, type, key, original_topic, original_partition,
           original_offset, replay_topic, payload, headers, error_class, error_message, attempts, dead_at)
         VALUES ($1, $2, $3, 'shop.order.placed.v1', 'ord_1', 'shop.orders', 0, 7, $4, $5, '{}', 'Poison',
           'no account', 1, now())`,
        [id, group, `evt_${group}`, `${group}.replay`, Buffer.from(`{"secret":"${group} payload"}`)],
      );
    tokens.viewer = await issue('ci-viewer', { role: 'viewer' });
    tokens.ledger = await issue('ledger-ops', { role: 'operator', groups: ['ledger'] });
    tokens.hooks = await issue('hooks-ops', { role: 'operator', groups: ['webhooks'] });
    tokens.root = await issue('second-admin', { role: 'admin', expires: '1h' });
  });
  afterAll(() => ingress?.close());

  it('shows the token once: the list has each name, role and scope, never a token or its digest', async () => {
    const list = await asAdmin('GET', '/admin/tokens');
    expect(list.status).toBe(200);
    expect(list.body.map((token: { name: string }) => token.name)).toEqual(
      expect.arrayContaining(['ci-viewer', 'ledger-ops', 'hooks-ops', 'second-admin']),
    );
    expect(list.body.find((token: { name: string }) => token.name === 'ledger-ops')).toMatchObject({
      role: 'operator',
      groups: ['ledger'],
      state: 'live',
    });
    const text = JSON.stringify(list.body);
    for (const token of Object.values(tokens)) expect(text).not.toContain(token);
    expect(text).not.toMatch(/hash/i);
    const stored = await ingress.query<{ token_hash: string }>(`SELECT token_hash FROM operator_tokens`);
    for (const { token_hash } of stored) expect(Object.values(tokens)).not.toContain(token_hash);
  });

  it('says who a token is and what it may do (whoami)', async () => {
    expect((await call(tokens.viewer, 'GET', '/admin/whoami')).body).toEqual({
      name: 'ci-viewer',
      role: 'viewer',
      groups: null,
      sources: null,
      may: { read: true, operate: false, administer: false },
    });
    expect((await call(tokens.ledger, 'GET', '/admin/whoami')).body).toMatchObject({
      name: 'ledger-ops',
      groups: ['ledger'],
      may: { read: true, operate: true, administer: false },
    });
    expect((await asAdmin('GET', '/admin/whoami')).body).toMatchObject({ name: 'admin', role: 'admin' });
  });

  it('lets a viewer read everything and change nothing: each change a 403 naming the role it needs', async () => {
    const read = await call(tokens.viewer, 'GET', '/admin/dead-letters');
    expect(read.status).toBe(200);
    expect(read.body.items.map((item: { id: string }) => item.id).sort()).toEqual(Object.values(letters).sort());
    expect((await call(tokens.viewer, 'GET', `/admin/dead-letters/${letters.payments}`)).status).toBe(200);
    const before = await snapshot();
    const endpoint = randomUUID();
    const changes: Array<[string, string, unknown, string]> = [
      ['POST', `/admin/dead-letters/${letters.ledger}/replay`, {}, 'operator'],
      ['POST', '/admin/dead-letters/replay', { all: true }, 'operator'],
      ['POST', '/admin/dead-letters/purge', { all: true, confirm: true }, 'admin'],
      ['POST', `/admin/dead-letters/${letters.ledger}/purge`, {}, 'admin'],
      ['POST', '/admin/parked-keys/purge', { group: 'ledger', key: 'ord_1', confirm: true }, 'admin'],
      ['POST', `/admin/sagas/${randomUUID()}/retry`, {}, 'operator'],
      ['POST', `/admin/sagas/${randomUUID()}/cancel`, {}, 'operator'],
      ['POST', '/admin/webhook-endpoints', { url: 'https://hooks.test/a', eventTypes: ['*'] }, 'admin'],
      ['POST', `/admin/webhook-endpoints/${endpoint}/disable`, {}, 'operator'],
      ['POST', `/admin/webhook-endpoints/${endpoint}/rotate-secret`, {}, 'admin'],
      ['DELETE', `/admin/webhook-endpoints/${endpoint}`, undefined, 'admin'],
      ['POST', '/admin/tokens', { name: 'sneaky', role: 'admin' }, 'admin'],
      ['POST', '/admin/tokens/ledger-ops/revoke', {}, 'admin'],
      ['GET', '/admin/tokens', undefined, 'admin'],
    ];
    for (const [method, path, body, role] of changes) {
      const answer = await call(tokens.viewer, method, path, body);
      expect({ path, status: answer.status, error: answer.body.error }).toEqual({
        path,
        status: 403,
        error: 'forbidden',
      });
      expect(answer.body.message).toBe(`this needs the ${role} role; token 'ci-viewer' is a viewer`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("lets a team operator see and replay its own group's dead letters, and not even see another group's", async () => {
    const own = await call(tokens.ledger, 'GET', '/admin/dead-letters');
    expect(own.body.items.map((item: { id: string }) => item.id)).toEqual([letters.ledger]);
    expect(own.body.total).toBe(1);
    expect((await call(tokens.ledger, 'GET', `/admin/dead-letters/${letters.ledger}`)).status).toBe(200);

    const before = await snapshot();
    const refused: Array<[string, string, unknown]> = [
      ['GET', `/admin/dead-letters/${letters.payments}`, undefined],
      ['GET', '/admin/dead-letters?group=payments', undefined],
      ['GET', '/admin/parked-keys?group=payments', undefined],
      ['POST', `/admin/dead-letters/${letters.payments}/replay`, {}],
      ['POST', '/admin/dead-letters/replay', { group: 'payments', all: true }],
    ];
    for (const [method, path, body] of refused) {
      const answer = await call(tokens.ledger, method, path, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
      expect(answer.body.message).toBe(`token 'ledger-ops' may not act on group 'payments' (its groups: ledger)`);
      expect(JSON.stringify(answer.body)).not.toContain('payments payload');
    }
    // Sagas are the fulfilment group's, endpoints the webhooks group's: not this team's either.
    expect((await call(tokens.ledger, 'GET', '/admin/sagas')).status).toBe(403);
    expect((await call(tokens.ledger, 'GET', '/admin/webhook-endpoints')).status).toBe(403);
    // A purge is the admin role's, even of its own group.
    expect((await call(tokens.ledger, 'POST', `/admin/dead-letters/${letters.ledger}/purge`, {})).status).toBe(403);
    expect(await snapshot()).toEqual(before);

    // A replay of everything matches its own group's only (a dry run: nothing is sent).
    const all = await call(tokens.ledger, 'POST', '/admin/dead-letters/replay', { all: true, dryRun: true });
    expect(all).toMatchObject({ status: 200, body: { matched: 1 } });
    const one = await call(tokens.ledger, 'POST', `/admin/dead-letters/${letters.ledger}/replay`, { dryRun: true });
    expect(one).toMatchObject({ status: 200, body: { matched: 1 } });
  });

  it('lets an admin do all, and the audit names the token that made each change', async () => {
    expect((await call(tokens.root, 'GET', `/admin/dead-letters/${letters.payments}`)).status).toBe(200);
    const purge = await call(tokens.root, 'POST', `/admin/dead-letters/${letters.payments}/purge`, { dryRun: true });
    expect(purge).toMatchObject({ status: 200, body: { matched: 1 } });
    expect((await call(tokens.root, 'POST', '/admin/tokens', { name: 'made-by-second', role: 'viewer' })).status).toBe(
      201,
    );

    const endpoint = await asAdmin('POST', '/admin/webhook-endpoints', {
      url: 'https://hooks.test/orders',
      eventTypes: ['shop.order.*'],
    });
    expect(endpoint.status).toBe(201);
    const disabled = await call(tokens.hooks, 'POST', `/admin/webhook-endpoints/${endpoint.body.id}/disable`, {});
    expect(disabled.status).toBe(200);

    const audit = await ingress.query<{ actor: string; action: string; subject_id: string }>(
      `SELECT actor, action, subject_id FROM operator_audit ORDER BY at, id`,
    );
    expect(audit).toEqual(
      expect.arrayContaining([
        { actor: 'admin', action: 'token-created', subject_id: 'ledger-ops' },
        { actor: 'second-admin', action: 'token-created', subject_id: 'made-by-second' },
        expect.objectContaining({ actor: 'hooks-ops', subject_id: endpoint.body.id }),
      ]),
    );
  });

  it('refuses a revoked token at its next request, and an expired one, with the reason', async () => {
    const token = await issue('short-lived', { role: 'operator' });
    expect((await call(token, 'GET', '/admin/backlog')).status).toBe(200);
    expect((await asAdmin('POST', '/admin/tokens/short-lived/revoke', {})).status).toBe(200);
    const revoked = await call(token, 'GET', '/admin/backlog');
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toMatch(/^token short-lived was revoked at \d{4}-/);
    expect((await asAdmin('POST', '/admin/tokens/short-lived/revoke', {})).status).toBe(409);
    expect((await asAdmin('POST', '/admin/tokens/no-such-token/revoke', {})).status).toBe(404);

    await ingress.query(`UPDATE operator_tokens SET expires_at = now() - interval '1 second' WHERE name = $1`, [
      'second-admin',
    ]);
    const expired = await call(tokens.root, 'GET', '/admin/backlog');
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/^token second-admin expired at \d{4}-/);
    expect((await call('hrk_not-a-token', 'GET', '/admin/backlog')).status).toBe(401);
  });

  it('answers 400 naming what is wrong with a new token, and writes nothing', async () => {
    const before = await ingress.query(`SELECT count(*)::int AS n FROM operator_tokens`);
    const bad: Array<[unknown, RegExp]> = [
      [{ role: 'viewer' }, /name is required/],
      [{ name: 'x1', role: 'superuser' }, /role "superuser" is not one of/],
      [{ name: 'x2', role: 'operator', groups: ['nope'] }, /unknown consumer group 'nope'/],
      [{ name: 'x3', role: 'admin', groups: ['ledger'] }, /cannot be limited to groups/],
      [{ name: 'x4', role: 'viewer', expires: 'someday' }, /expiry "someday"/],
      [{ name: 'ci-viewer', role: 'viewer' }, /already exists/],
    ];
    for (const [body, message] of bad) {
      const answer = await asAdmin('POST', '/admin/tokens', body);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.message).toMatch(message);
    }
    expect(await ingress.query(`SELECT count(*)::int AS n FROM operator_tokens`)).toEqual(before);
  });
});
