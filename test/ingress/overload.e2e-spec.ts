import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { IngressProcess, orderData, post, secrets, startIngressProcess } from './ingress-harness';
import { standardHeaders } from './signing';
import { bearer, issueTestToken } from './status-tokens';

/** One signed delivery of the `shop` source, with its sender id. */
function delivery(id = `msg_${randomBytes(6).toString('hex')}`) {
  const body = JSON.stringify({ type: 'shop.order.placed.v1', timestamp: new Date().toISOString(), data: orderData() });
  return { id, body, headers: () => standardHeaders(secrets.standard[0], id, body) };
}

/** Sends a delivery as a sender does: after a 503 or 429, again once its Retry-After has passed (ten tries at most). */
async function retryAsASender(url: string, one: ReturnType<typeof delivery>) {
  for (let attempt = 1; ; attempt++) {
    const answer = await post(url, one.body, one.headers());
    const retryAfter = Number(answer.headers.get('retry-after'));
    if ((answer.status !== 503 && answer.status !== 429) || !retryAfter || attempt === 10) return answer;
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1_000));
  }
}

/** Holds inbound_events locked in a session of its own, so that every insert waits, until `release`. */
async function lockInboundEvents(url: string): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE inbound_events IN ACCESS EXCLUSIVE MODE');
  return {
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

describe('the ingress under a burst (a real ingress process)', () => {
  let ingress: IngressProcess | undefined;

  afterEach(async () => {
    await ingress?.close();
    ingress = undefined;
  });

  const rowsOf = async (ids: string[]) =>
    (
      await ingress!.query<{ sender_event_id: string }>(
        'SELECT sender_event_id FROM inbound_events WHERE sender_event_id = ANY($1)',
        [ids],
      )
    ).map((row) => row.sender_event_id);

  it('answers a burst far above capacity within its bound, sheds with a fast 503 that records nothing, and takes the retries', async () => {
    ingress = await startIngressProcess({ INGRESS_MAX_PENDING: '20', INGRESS_COMMIT_TIMEOUT_MS: '1000' });
    // Commits stall for a second and a half, as on a database at its limit.
    const lock = await lockInboundEvents(ingress.database.url);
    const release = setTimeout(() => void lock.release(), 1_500);
    const deliveries = Array.from({ length: 200 }, () => delivery());
    const answers = await Promise.all(
      deliveries.map(async (one) => {
        const sentAt = Date.now();
        const answer = await post(`${ingress!.url}/webhooks/shop`, one.body, one.headers());
        return { ...answer, ms: Date.now() - sentAt, one };
      }),
    );
    clearTimeout(release);
    await lock.release().catch(() => undefined);

    // Every answer within the bound (1 s, and the time to reach the ingress on a busy machine).
    expect(answers.filter((answer) => answer.ms > 3_000).map((answer) => answer.ms)).toEqual([]);
    expect(answers.filter((answer) => answer.status !== 202 && answer.status !== 503)).toEqual([]);
    const shed = answers.filter((answer) => answer.status === 503);
    expect(shed.length).toBeGreaterThan(100);
    for (const answer of shed) {
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.body).toMatchObject({
        error: 'overloaded',
        reason: expect.stringMatching(/^(cpu_saturated|queue_full|queue_delay|commit_timeout)$/),
      });
    }
    // Those shed before their statement ran left nothing behind.
    const nothingRecorded = shed.filter((answer) => !answer.body.mayBeRecorded).map((answer) => answer.one.id);
    expect(await rowsOf(nothingRecorded)).toEqual([]);

    // The senders retry after Retry-After (again while it still sheds): every event is taken, once.
    for (const answer of shed) {
      const retried = await retryAsASender(`${ingress.url}/webhooks/shop`, answer.one);
      expect([202, 200]).toContain(retried.status);
      if (retried.status === 200) expect(answer.body.mayBeRecorded).toBe(true);
    }
    expect((await rowsOf(deliveries.map((one) => one.id))).length).toBe(200);
    const metrics = await (await fetch(`${ingress.url}/metrics`)).text();
    expect(metrics).toMatch(/hookrail_ingress_shed_total\{reason="(cpu_saturated|queue_full|queue_delay)"\} \d+/);
    expect(
      ingress.process.logged(
        'overloaded: shedding deliveries with 503 overloaded and Retry-After until the commits catch up',
      ),
    ).toBe(true);
  });

  it('says overloaded, not database_unavailable, when its pool gives no connection while Postgres answers the others', async () => {
    ingress = await startIngressProcess({
      DATABASE_POOL_SIZE: '1',
      GROUP_COMMIT_MAX_ROWS: '1',
      INGRESS_COMMIT_TIMEOUT_MS: '15000',
    });
    const warm = delivery();
    const accepted = await post(`${ingress.url}/webhooks/shop`, warm.body, warm.headers());
    expect(accepted.status).toBe(202);
    const viewer = bearer(await issueTestToken(ingress.database.url, { role: 'viewer' }));
    const lock = await lockInboundEvents(ingress.database.url);
    try {
      // The one connection waits on the lock; a status read (its token check first) waits for the connection past
      // the connect timeout.
      const stuck = delivery();
      const stuckAnswer = post(`${ingress.url}/webhooks/shop`, stuck.body, stuck.headers());
      const status = await fetch(`${ingress.url}/events/${String(accepted.body.id)}`, { headers: viewer });
      expect(status.status).toBe(503);
      expect(await status.json()).toMatchObject({ error: 'overloaded', reason: 'pool_timeout' });
      await lock.release();
      expect((await stuckAnswer).status).toBe(202);
    } finally {
      await lock.release().catch(() => undefined);
    }
  });
});
