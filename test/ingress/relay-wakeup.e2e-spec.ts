import { OUTBOX_CHANNEL } from '@app/outbox';
import { waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

describe('an accepted event wakes the relays', () => {
  let ingress: Ingress;
  let listener: Client;
  const payloads: string[] = [];

  beforeAll(async () => {
    ingress = await startIngress();
    listener = new Client({ connectionString: ingress.database.url });
    await listener.connect();
    listener.on('notification', (notification) => payloads.push(notification.payload ?? ''));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
  });

  afterAll(async () => {
    await listener.end();
    await ingress.close();
  });

  it('with a NOTIFY naming its lane, sent after the commit: the outbox row is there when it arrives; a duplicate sends none', async () => {
    const payload = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData(),
    });
    const messageId = `msg_${randomBytes(6).toString('hex')}`;
    const rowsWhenWoken = new Promise<number>((resolve) =>
      listener.once('notification', () => void ingress.count('outbox').then(resolve)),
    );

    const accepted = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], messageId, payload),
    );
    expect(accepted.status).toBe(202);
    expect(await rowsWhenWoken).toBe(1);

    const duplicate = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], messageId, payload),
    );
    expect(duplicate.status).toBe(200);
    // Notifications arrive in commit order; the explicit one below would trail one sent for the duplicate.
    await ingress.query(`SELECT pg_notify($1, 'marker')`, [OUTBOX_CHANNEL]);
    await waitFor(() => payloads.includes('marker'), { what: 'the marker notification' });
    // The NOTIFY names the lane of the event's outbox row: only the relay loop that owns it wakes.
    const [{ lane }] = await ingress.query<{ lane: number }>(`SELECT lane FROM outbox`);
    expect(payloads).toEqual([String(lane), 'marker']);
  });
});
