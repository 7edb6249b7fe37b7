import { Database } from '@app/db';
import { TcpProxy, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

interface PoolCounts {
  totalCount: number;
  idleCount: number;
}

describe('the connection to Postgres breaks while the event is being written', () => {
  let proxy: TcpProxy;
  let ingress: Ingress;

  beforeAll(async () => {
    proxy = await TcpProxy.start('127.0.0.1:5432');
    // One connection, no backlog sampling: webhook inserts and the NOTIFY after them are all that runs on it.
    ingress = await startIngress({ DATABASE_POOL_SIZE: '1', BACKPRESSURE_MAX_BACKLOG: '0' }, (url) =>
      Object.assign(new URL(url), { host: proxy.address }).toString(),
    );
  });

  afterAll(async () => {
    await proxy?.resume();
    await ingress?.close();
    await proxy?.cut();
  });

  const event = () =>
    JSON.stringify({ type: 'shop.order.placed.v1', timestamp: new Date().toISOString(), data: orderData() });
  const deliver = (messageId: string, body: string) =>
    post(`${ingress.url}/webhooks/shop`, body, standardHeaders(secrets.standard[0], messageId, body));

  it('answers 503 without claiming that nothing was recorded, and the retry finds the committed event', async () => {
    expect((await deliver(`msg_${randomBytes(4).toString('hex')}`, event())).status).toBe(202);
    // The connection back in the pool (the NOTIFY after that insert done): while answers are held, a new one
    // could not complete its handshake.
    const pool = (ingress.app.get(Database).dataSource.driver as unknown as { master: PoolCounts }).master;
    await waitFor(() => pool.totalCount === 1 && pool.idleCount === 1, { what: 'the connection idle in the pool' });

    // The insert reaches Postgres and commits; its answer is held at the proxy, then the connection breaks.
    proxy.stall('answers');
    const messageId = `msg_${randomBytes(4).toString('hex')}`;
    const body = event();
    const answer = deliver(messageId, body);
    const row = await waitFor(
      async () =>
        (
          await ingress.query<{ id: string }>('SELECT id FROM inbound_events WHERE sender_event_id = $1', [messageId])
        )[0],
      { what: 'the insert committed behind the proxy' },
    );
    await proxy.cut();

    const lost = await answer;
    expect(lost.status).toBe(503);
    expect(lost.headers.get('retry-after')).toBe('5');
    expect(lost.body).toEqual({
      error: 'write_outcome_unknown',
      message:
        'the connection to the event store broke while the event was being written, so it may have been recorded; ' +
        'retry with the same event id: a duplicate answer (200) then says it was',
    });

    await proxy.resume();
    const retried = await waitFor(async () => {
      const response = await deliver(messageId, body);
      return response.status === 503 ? undefined : response;
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ id: row.id, duplicate: true });
    expect(await ingress.count('inbound_events')).toBe(2);
    expect(await ingress.count('outbox')).toBe(2);
  });
});
