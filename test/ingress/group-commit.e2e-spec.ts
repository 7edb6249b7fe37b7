import { randomBytes } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

/**
 * With a wide group-commit window, concurrent deliveries share transactions; every answer must still be exactly what
 * the delivery alone would have got: 202 for a new event, 200 with the first id for a redelivery, 409 for an id
 * reused with other bytes.
 */
describe('the group commit answers each delivery on its own', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress({ GROUP_COMMIT_WAIT_MS: '50', GROUP_COMMIT_MAX_ROWS: '100' });
  });

  afterAll(() => ingress.close());

  const body = (type = 'shop.order.placed.v1', note = 'gift wrap') =>
    JSON.stringify({ type, timestamp: new Date().toISOString(), data: { ...orderData(), note } });
  const send = (messageId: string, payload: string) =>
    post(`${ingress.url}/webhooks/shop`, payload, standardHeaders(secrets.standard[0], messageId, payload));

  it('accepts distinct deliveries, and of concurrent copies of one id exactly one, the rest 200 or 409 by their bytes', async () => {
    const distinct = Array.from({ length: 8 }, () => ({
      id: `msg_${randomBytes(6).toString('hex')}`,
      payload: body(),
    }));
    const sharedId = `msg_${randomBytes(6).toString('hex')}`;
    const [same, other] = [body('shop.order.placed.v1', 'same'), body('shop.order.placed.v1', 'other')];
    const copies = [same, same, other, same, other];

    const responses = await Promise.all([
      ...distinct.map(({ id, payload }) => send(id, payload)),
      ...copies.map((payload) => send(sharedId, payload)),
    ]);
    const forDistinct = responses.slice(0, distinct.length);
    const forCopies = responses.slice(distinct.length);

    expect(forDistinct.map((response) => response.status)).toEqual(distinct.map(() => 202));
    expect(new Set(forDistinct.map((response) => response.body.id)).size).toBe(distinct.length);

    const winners = forCopies.filter((response) => response.status === 202);
    expect(winners).toHaveLength(1);
    const winnerBytes = copies[forCopies.indexOf(winners[0])];
    forCopies.forEach((response, index) => {
      if (response === winners[0]) return;
      if (copies[index] === winnerBytes)
        expect(response).toMatchObject({ status: 200, body: { id: winners[0].body.id, duplicate: true } });
      else expect(response).toMatchObject({ status: 409, body: { error: 'event_id_conflict' } });
    });

    const stored = await ingress.query<{ id: string; outbox: number }>(
      `SELECT e.id, (SELECT count(*)::int FROM outbox o WHERE o.event_id = e.id) AS outbox
         FROM inbound_events e WHERE e.sender_event_id = ANY($1)`,
      [[sharedId, ...distinct.map(({ id }) => id)]],
    );
    expect(stored).toHaveLength(distinct.length + 1);
    expect(stored.every((row) => row.outbox === 1)).toBe(true);
    expect(stored.map((row) => row.id)).toContain(winners[0].body.id);
  });

  it('answers a redelivery of an event committed in an earlier group 200 with its id, and other bytes 409', async () => {
    const messageId = `msg_${randomBytes(6).toString('hex')}`;
    const payload = body('shop.order.cancelled.v1');
    const first = await send(messageId, payload);
    expect(first.status).toBe(202);

    const [again, changed, fresh] = await Promise.all([
      send(messageId, payload),
      send(messageId, body('shop.order.cancelled.v1', 'changed')),
      send(`msg_${randomBytes(6).toString('hex')}`, body()),
    ]);
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id, duplicate: true } });
    expect(changed).toMatchObject({ status: 409, body: { error: 'event_id_conflict' } });
    expect(fresh.status).toBe(202);
    expect(await ingress.count('inbound_events')).toBe(await ingress.count('outbox'));
  });
});
