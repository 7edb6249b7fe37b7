import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

describe('Postgres unreachable', () => {
  const payload = () =>
    JSON.stringify({ type: 'shop.order.placed.v1', timestamp: new Date().toISOString(), data: orderData() });

  it('answers 503 with Retry-After when the database cannot be reached at all, and /readyz says not ready', async () => {
    // Port 1 on loopback: nothing listens, connections are refused at once.
    const ingress = await startIngress({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/hookrail' });
    try {
      const body = payload();
      const response = await post(
        `${ingress.url}/webhooks/shop`,
        body,
        standardHeaders(secrets.standard[0], 'msg_down', body),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.body).toEqual({
        error: 'database_unavailable',
        message: 'the event store is unavailable; nothing was recorded, retry later',
      });
      expect((await fetch(`${ingress.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${ingress.url}/healthz`)).status).toBe(200);
    } finally {
      await ingress.close();
    }
  });

  it('answers 503 when the database goes away after start, writes nothing, and recovers when it is back', async () => {
    const ingress = await startIngress({ DATABASE_POOL_SIZE: '2' });
    const admin = new Client({ connectionString: ingress.database.url.replace(/\/[^/]+$/, '/postgres') });
    try {
      const warm = payload();
      expect(
        (
          await post(
            `${ingress.url}/webhooks/shop`,
            warm,
            standardHeaders(secrets.standard[0], `msg_${randomBytes(4).toString('hex')}`, warm),
          )
        ).status,
      ).toBe(202);

      // Refuse new connections to this database and cut the open ones: the database is "down" for the ingress.
      await admin.connect();
      await admin.query(`ALTER DATABASE "${ingress.database.name}" ALLOW_CONNECTIONS false`);
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'hookrail-ingress'`,
        [ingress.database.name],
      );
      const body = payload();
      const messageId = `msg_${randomBytes(4).toString('hex')}`;
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        statuses.push(
          (await post(`${ingress.url}/webhooks/shop`, body, standardHeaders(secrets.standard[0], messageId, body)))
            .status,
        );
      }
      expect(statuses).toEqual([503, 503, 503]);
      expect((await fetch(`${ingress.url}/readyz`)).status).toBe(503);

      await admin.query(`ALTER DATABASE "${ingress.database.name}" ALLOW_CONNECTIONS true`);
      expect(await ingress.query('SELECT 1 FROM inbound_events WHERE sender_event_id = $1', [messageId])).toEqual([]);
      const retried = await post(
        `${ingress.url}/webhooks/shop`,
        body,
        standardHeaders(secrets.standard[0], messageId, body),
      );
      expect(retried.status).toBe(202);
      expect(await ingress.count('inbound_events')).toBe(2);
      expect(await ingress.count('outbox')).toBe(2);
    } finally {
      await admin.end().catch(() => undefined);
      await ingress.close();
    }
  });
});
