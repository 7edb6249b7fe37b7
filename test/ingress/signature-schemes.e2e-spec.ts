import { randomBytes, randomUUID } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { githubHeaders, standardHeaders, stripeHeaders } from './signing';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe("signature schemes, signed by the senders' own libraries", () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(() => ingress.close());

  const newId = () => `msg_${randomBytes(6).toString('hex')}`;

  describe('standard-webhooks', () => {
    const body = () =>
      JSON.stringify({ type: 'shop.order.placed.v1', timestamp: new Date().toISOString(), data: orderData() });
    const send = (payload: string, headers: Record<string, string>) =>
      post(`${ingress.url}/webhooks/shop`, payload, headers);

    it('accepts a valid signature', async () => {
      const payload = body();
      const response = await send(payload, standardHeaders(secrets.standard[0], newId(), payload));
      expect(response.status).toBe(202);
      expect(response.body).toEqual({
        id: expect.any(String),
        duplicate: false,
        status_url: `/events/${response.body.id}`,
      });
    });

    it('accepts the second (rotated) secret', async () => {
      const payload = body();
      expect((await send(payload, standardHeaders(secrets.standard[1], newId(), payload))).status).toBe(202);
    });

    it('rejects a tampered body, a wrong secret, a stale and a future timestamp with 401 and writes nothing', async () => {
      const before = await ingress.count('inbound_events');
      const payload = body();
      const tampered = await send(
        payload.replace('4200', '4201'),
        standardHeaders(secrets.standard[0], newId(), payload),
      );
      const wrongSecret = await send(
        payload,
        standardHeaders(`whsec_${randomBytes(24).toString('base64')}`, newId(), payload),
      );
      const stale = await send(payload, standardHeaders(secrets.standard[0], newId(), payload, minutesAgo(6)));
      const future = await send(payload, standardHeaders(secrets.standard[0], newId(), payload, minutesAgo(-6)));
      for (const response of [tampered, wrongSecret, stale, future]) {
        expect(response.status).toBe(401);
        expect(response.body.error).toBe('invalid_signature');
      }
      expect(stale.body.message).toMatch(/older than the tolerance of 300 s/);
      expect(future.body.message).toMatch(/in the future/);
      expect(await ingress.count('inbound_events')).toBe(before);
    });

    it('rejects missing signature headers with 401', async () => {
      const response = await send(body(), { 'content-type': 'application/json', 'webhook-id': newId() });
      expect(response).toMatchObject({
        status: 401,
        body: { error: 'invalid_signature', message: 'missing webhook-timestamp header' },
      });
    });
  });

  describe('stripe', () => {
    const body = () =>
      JSON.stringify({
        id: `evt_${randomBytes(8).toString('hex')}`,
        type: 'payment_intent.succeeded',
        data: { object: { id: `pi_${randomBytes(4).toString('hex')}`, amount: 4200 } },
      });
    const send = (payload: string, headers: Record<string, string>) =>
      post(`${ingress.url}/webhooks/stripe`, payload, headers);

    it('accepts a valid signature and keys the event by the body id and data.object.id', async () => {
      const payload = body();
      const response = await send(payload, stripeHeaders(secrets.stripe[0], payload));
      expect(response.status).toBe(202);
      const [row] = await ingress.query<{ sender_event_id: string; aggregate_id: string; type: string }>(
        'SELECT sender_event_id, aggregate_id, type FROM inbound_events WHERE id = $1',
        [response.body.id],
      );
      expect(row).toEqual({
        sender_event_id: JSON.parse(payload).id,
        aggregate_id: JSON.parse(payload).data.object.id,
        type: 'payment_intent.succeeded',
      });
    });

    it('accepts the second (rotated) secret', async () => {
      const payload = body();
      expect((await send(payload, stripeHeaders(secrets.stripe[1], payload))).status).toBe(202);
    });

    it('rejects a tampered body, a wrong secret, a stale and a future timestamp with 401', async () => {
      const payload = body();
      const responses = [
        await send(`${payload} `, stripeHeaders(secrets.stripe[0], payload)),
        await send(payload, stripeHeaders('whsec_wrong', payload)),
        await send(payload, stripeHeaders(secrets.stripe[0], payload, minutesAgo(6))),
        await send(payload, stripeHeaders(secrets.stripe[0], payload, minutesAgo(-6))),
      ];
      expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 401]);
      expect(
        await ingress.query('SELECT 1 FROM inbound_events WHERE sender_event_id = $1', [JSON.parse(payload).id]),
      ).toEqual([]);
    });
  });

  describe('github', () => {
    const body = () =>
      JSON.stringify({
        ref: 'refs/heads/main',
        repository: { full_name: 'hookrail/hookrail' },
        after: randomBytes(20).toString('hex'),
      });
    const send = (payload: string, headers: Record<string, string>) =>
      post(`${ingress.url}/webhooks/github`, payload, headers);

    it('accepts a valid signature; id and type come from X-GitHub-Delivery and X-GitHub-Event', async () => {
      const payload = body();
      const delivery = randomUUID();
      const response = await send(payload, await githubHeaders(secrets.github[0], payload, delivery, 'push'));
      expect(response.status).toBe(202);
      const [row] = await ingress.query<{ sender_event_id: string; type: string; aggregate_id: string }>(
        'SELECT sender_event_id, type, aggregate_id FROM inbound_events WHERE id = $1',
        [response.body.id],
      );
      expect(row).toEqual({ sender_event_id: delivery, type: 'github.push', aggregate_id: 'hookrail/hookrail' });
    });

    it('accepts the second (rotated) secret', async () => {
      const payload = body();
      expect((await send(payload, await githubHeaders(secrets.github[1], payload, randomUUID()))).status).toBe(202);
    });

    it('rejects a tampered body and a wrong secret with 401 (GitHub signs no timestamp)', async () => {
      const payload = body();
      const tampered = await send(
        payload.replace('main', 'mainx'),
        await githubHeaders(secrets.github[0], payload, randomUUID()),
      );
      const wrong = await send(payload, await githubHeaders('not-the-secret', payload, randomUUID()));
      expect([tampered.status, wrong.status]).toEqual([401, 401]);
      expect(wrong.body.message).toBe('X-Hub-Signature-256 does not match the body with any active secret');
    });
  });
});
