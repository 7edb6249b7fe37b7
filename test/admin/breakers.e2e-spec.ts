import { saveBreakerState } from '@app/consumer-runtime';
import { connect } from '@app/db';
import { hookrailInProcess } from '../cli/hookrail-in-process';
import { Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-breakers-test';

describe('circuit breakers for operators: GET /admin/breakers and `hookrail breakers` (real ingress and Postgres)', () => {
  let ingress: Ingress;
  const since = new Date('2026-01-01T10:00:00Z');

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN });
    const db = await connect({ url: ingress.database.url, applicationName: 'breakers-test', poolSize: 1 });
    // As the consumer runtime records them: the first report of an outage sets `since`, later ones keep it.
    await saveBreakerState(db, {
      group: 'notifier',
      dependency: 'email-provider',
      state: 'open',
      since,
      lastError: 'EmailProviderUnavailableError: email-provider answered 503',
    });
    await saveBreakerState(db, {
      group: 'notifier',
      dependency: 'email-provider',
      state: 'open',
      since: new Date('2026-01-01T10:05:00Z'),
      lastError: null,
    });
    await saveBreakerState(db, { group: 'agent', dependency: 'model', state: 'closed', since, lastError: 'timeout' });
    await db.destroy();
  });

  afterAll(async () => {
    await ingress?.close();
  });

  const get = async (path: string, token: string | null = ADMIN_TOKEN) => {
    const response = await fetch(`${ingress.adminUrl}${path}`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('lists the breakers, open ones first, with a line that says what is down since when', async () => {
    const all = await get('/admin/breakers');
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      expect.objectContaining({
        group: 'notifier',
        dependency: 'email-provider',
        state: 'open',
        since: since.toISOString(),
        lastError: 'EmailProviderUnavailableError: email-provider answered 503',
        summary: `notifier: email-provider unavailable since ${since.toISOString()}`,
      }),
      expect.objectContaining({ group: 'agent', dependency: 'model', state: 'closed' }),
    ]);
    const open = await get('/admin/breakers?state=open');
    expect(open.body.map((breaker: { group: string }) => breaker.group)).toEqual(['notifier']);
  });

  it('answers 400 naming the parameter for a bad state, and 401 without the token', async () => {
    expect(await get('/admin/breakers?state=half')).toMatchObject({
      status: 400,
      body: { error: 'malformed_request', message: 'state must be "open" or "all"' },
    });
    expect(await get('/admin/breakers', null)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect(await get('/admin/breakers', 'wrong-token')).toMatchObject({ status: 401 });
  });

  it('prints one line per open breaker in `hookrail breakers`, and every breaker with --all', async () => {
    const run = (...args: string[]) => hookrailInProcess(ingress.database.url, args);
    const open = await run('breakers');
    expect(open.code).toBe(0);
    expect(open.out).toHaveLength(1);
    expect(open.out[0]).toMatch(
      /^notifier: email-provider unavailable since 2026-01-01T10:00:00\.000Z \(\S+\); last error: EmailProviderUnavailableError: email-provider answered 503$/,
    );
    const all = await run('breakers', '--all');
    expect(all.out[1]).toMatch(/^agent: model answering since 2026-01-01T10:00:00\.000Z/);
    const json = await run('breakers', '--json');
    expect(JSON.parse(json.out[0])).toEqual([expect.objectContaining({ group: 'notifier', state: 'open' })]);
  });
});
