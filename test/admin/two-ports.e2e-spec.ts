import { Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-two-ports-test';

/** Every route of the operator plane, as a request an operator would make. */
const OPERATOR_ROUTES: Array<[string, string]> = [
  ['GET', '/admin'],
  ['GET', '/admin/assets/favicon.svg'],
  ['GET', '/admin/backlog'],
  ['GET', '/admin/lag'],
  ['GET', '/admin/audit'],
  ['GET', '/admin/dead-letters'],
  ['POST', '/admin/dead-letters/replay'],
  ['POST', '/admin/dead-letters/purge'],
  ['GET', '/admin/parked-keys'],
  ['POST', '/admin/parked-keys/purge'],
  ['GET', '/admin/breakers'],
  ['GET', '/admin/sagas'],
  ['GET', '/admin/jobs'],
  ['GET', '/admin/consumer-groups'],
  ['GET', '/admin/events/evt_1'],
  ['GET', '/admin/sources'],
  ['GET', '/admin/charts'],
  ['GET', '/admin/webhook-endpoints'],
  ['POST', '/admin/webhook-endpoints'],
  ['GET', '/catalog'],
  ['GET', '/catalog/asyncapi.json'],
];

describe('two listeners: the public port takes webhooks and events, the admin port the operator plane', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN, OPS_SAMPLE_INTERVAL_MS: '0' });
  });
  afterAll(() => ingress?.close());

  it.each(OPERATOR_ROUTES)('the public port answers 404 for %s %s, with or without a token', async (method, route) => {
    for (const headers of [{}, { authorization: `Bearer ${ADMIN_TOKEN}` }] as Array<Record<string, string>>) {
      const response = await fetch(`${ingress.url}${route}`, { method, headers });
      expect({ route, status: response.status }).toEqual({ route, status: 404 });
      expect(await response.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it('the admin port serves the console, the API with a token, and the catalogue', async () => {
    expect((await fetch(`${ingress.adminUrl}/admin`)).status).toBe(200);
    expect((await fetch(`${ingress.adminUrl}/admin/backlog`)).status).toBe(401);
    const backlog = await fetch(`${ingress.adminUrl}/admin/backlog`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(backlog.status).toBe(200);
    expect((await fetch(`${ingress.adminUrl}/catalog`)).status).toBe(200);
  });

  it('the admin port takes no webhook or event, and the public port still does', async () => {
    expect((await fetch(`${ingress.adminUrl}/webhooks/shop`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${ingress.adminUrl}/events`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${ingress.url}/webhooks/shop`, { method: 'POST', body: '{}' })).status).toBe(415);
  });
});
