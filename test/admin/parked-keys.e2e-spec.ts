import { connect } from '@app/db';
import { orderEvent, ParkingScenario, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { apiCall, Ingress, orderData, post, secrets, startIngress } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';

const ADMIN_TOKEN = 'admin-token-for-the-parked-keys-test';

describe('parked keys through the ingress: GET /events/:id, /admin/parked-keys and confirmed purges', () => {
  let ingress: Ingress;
  let dataSource: DataSource;
  let scenario: ParkingScenario;

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN });
    dataSource = await connect({ url: ingress.database.url, applicationName: 'parked-keys-test', poolSize: 6 });
    scenario = await ParkingScenario.start(dataSource);
  });

  afterAll(async () => {
    await scenario?.stop();
    await dataSource?.destroy();
    await ingress?.close();
  });

  const call = (method: string, path: string, { body = undefined as unknown, token = ADMIN_TOKEN } = {}) =>
    apiCall(ingress.adminUrl, method, path, { token, body, operator: 'ada' });

  /** Three events of `orderId`: the first rejected (dead-lettered), the other two parked behind it. */
  async function parkKey(orderId: string, middleId: string = randomUUID()) {
    const events = [orderEvent(orderId), orderEvent(orderId, { id: middleId }), orderEvent(orderId)];
    scenario.rejected.add(events[0].id);
    await scenario.publish(events);
    const head = await scenario.deadLetterOf(events[0].id);
    await scenario.deadLetterOf(events[2].id, (row) => row.status === 'parked');
    return { events, head };
  }

  it('shows a parked event as parked in its group, lists the parked key, and purges its head only when confirmed', async () => {
    const payload = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData('ord-park'),
    });
    const accepted = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], randomUUID(), payload),
    );
    const eventId = accepted.body.id as string;
    const { events, head } = await parkKey('ord-park', eventId);

    const status = (await (
      await fetch(`${ingress.url}/events/${eventId}`, { headers: await ingress.viewer() })
    ).json()) as { groups: unknown[] };
    expect(status.groups).toEqual([
      expect.objectContaining({
        group: scenario.group,
        status: 'parked',
        lastError: `parked behind dead letter ${head.id}`,
      }),
    ]);

    expect((await call('GET', '/admin/parked-keys', { token: 'wrong-token-wrong-token' })).status).toBe(401);
    const listed = await call('GET', `/admin/parked-keys?group=${scenario.group}`);
    expect(listed).toMatchObject({
      status: 200,
      body: {
        items: [
          {
            group: scenario.group,
            key: 'ord-park',
            headDeadLetterId: head.id,
            headEventId: events[0].id,
            headStatus: 'dead',
            headErrorClass: 'PermanentError',
            parkedEvents: 2,
          },
        ],
      },
    });
    // The ingress reports every group's parked keys (and the outbox backlog) itself: the alert on them does not need
    // the group's own process.
    const metrics = await (await fetch(`${ingress.adminUrl}/metrics`)).text();
    expect(metrics).toContain(`hookrail_consumer_parked_keys{group="${scenario.group}"} 1\n`);
    expect(metrics).toContain(`hookrail_consumer_parked_events{group="${scenario.group}"} 2\n`);
    expect(metrics).toMatch(
      new RegExp(`hookrail_consumer_parked_oldest_age_seconds\\{group="${scenario.group}"\\} [\\d.]+\n`),
    );
    expect(metrics).toMatch(/^hookrail_outbox_oldest_pending_age_seconds [\d.]+$/m);
    const deadLetters = await call('GET', `/admin/dead-letters?group=${scenario.group}`);
    expect(deadLetters.body.items.map((item: { id: string }) => item.id)).toEqual([head.id]);
    expect((await call('GET', `/admin/dead-letters?group=${scenario.group}&status=parked`)).body.total).toBe(2);

    const unconfirmed = await call('POST', `/admin/dead-letters/${head.id}/purge`, { body: {} });
    expect(unconfirmed).toMatchObject({
      status: 409,
      body: {
        error: 'confirmation_required',
        message: expect.stringContaining('2 parked event(s) wait behind it'),
        parked: [{ deadLetterId: head.id, key: 'ord-park', parkedEvents: 2 }],
      },
    });
    expect((await scenario.deadLetterOf(events[0].id)).status).toBe('dead');

    const confirmed = await call('POST', `/admin/dead-letters/${head.id}/purge`, { body: { confirm: true } });
    expect(confirmed).toMatchObject({ status: 200, body: { purged: [head.id] } });
    await waitFor(async () => (await scenario.parkedKey('ord-park')) === undefined, { what: 'ord-park released' });
    expect(await scenario.effects('ord-park')).toEqual([events[1].id, events[2].id]);
    const after = (await (
      await fetch(`${ingress.url}/events/${eventId}`, { headers: await ingress.viewer() })
    ).json()) as { groups: unknown[] };
    expect(after.groups).toEqual([expect.objectContaining({ group: scenario.group, status: 'processed' })]);
  });

  it('purges a whole key in one confirmed, audited request', async () => {
    const { head } = await parkKey('ord-gone');
    expect((await call('POST', '/admin/parked-keys/purge', { body: { group: scenario.group } })).body).toMatchObject({
      error: 'malformed_request',
      message: expect.stringContaining('"group" and "key"'),
    });
    const body = { group: scenario.group, key: 'ord-gone' };
    expect((await call('POST', '/admin/parked-keys/purge', { body })).status).toBe(409);
    const dry = await call('POST', '/admin/parked-keys/purge', { body: { ...body, dryRun: true } });
    expect(dry.body).toMatchObject({ dryRun: true, wasParked: true, parkedEvents: 2, purged: [] });

    const purged = await call('POST', '/admin/parked-keys/purge', { body: { ...body, confirm: true } });
    expect(purged).toMatchObject({ status: 200, body: { dryRun: false, wasParked: true, parkedEvents: 2 } });
    expect(purged.body.purged).toHaveLength(3);
    expect(purged.body.purged).toContain(head.id);
    expect((await call('GET', `/admin/parked-keys?group=${scenario.group}`)).body.items).toEqual([]);
    const [audit] = await dataSource.query(
      `SELECT actor, action, details AS filter, count FROM operator_audit WHERE subject_type = 'dead-letters' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      actor: 'admin:ada',
      action: 'purge',
      filter: { group: scenario.group, key: 'ord-gone', wholeKey: true },
      count: 3,
    });
  });
});
