import { connect } from '@app/db';
import { DeadLetterScenario, orderEvent, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { Ingress, startIngress } from '../ingress/ingress-harness';

const ADMIN_TOKEN = 'admin-token-for-the-admin-api-test';

describe('/admin API (real ingress, Kafka and Postgres)', () => {
  let ingress: Ingress;
  let dataSource: DataSource;
  let scenario: DeadLetterScenario;

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN });
    dataSource = await connect({ url: ingress.database.url, applicationName: 'admin-api-test', poolSize: 6 });
    scenario = await DeadLetterScenario.start(dataSource);
  });

  afterAll(async () => {
    await scenario?.stop();
    await dataSource?.destroy();
    await ingress?.close();
  });

  async function call(
    method: string,
    path: string,
    { token = ADMIN_TOKEN as string | null, body = undefined as unknown, operator = 'ada' } = {},
  ) {
    const headers: Record<string, string> = { 'x-hookrail-operator': operator };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${ingress.adminUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  const state = async () => ({
    deadLetters: await dataSource.query(`SELECT id, status, replay_count, updated_at FROM dead_letters ORDER BY id`),
    audit: await dataSource.query(`SELECT id FROM operator_audit WHERE subject_type = 'dead-letters' ORDER BY id`),
    replayed: await scenario.endOffset(scenario.failing.replayTopic),
  });

  it('answers 401 without the token or with a wrong one, and changes nothing', async () => {
    const event = orderEvent('order-unauthorized');
    await scenario.publish([event]);
    const { id } = await scenario.deadLetterOf(event.id);
    const before = await state();

    const attempts: Array<[string, string, unknown?]> = [
      ['GET', '/admin/dead-letters'],
      ['GET', `/admin/dead-letters/${id}`],
      ['POST', '/admin/dead-letters/replay', { all: true }],
      ['POST', `/admin/dead-letters/${id}/replay`, {}],
      ['POST', '/admin/dead-letters/purge', { ids: [id] }],
      ['POST', `/admin/dead-letters/${id}/purge`, {}],
      ['GET', '/admin/backlog'],
      ['GET', '/admin/lag'],
      ['GET', '/admin/audit'],
    ];
    for (const [method, path, body] of attempts) {
      for (const token of [null, 'wrong-token', `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
        const response = await call(method, path, { token, body });
        expect({ method, path, token, status: response.status, error: response.body.error }).toEqual({
          method,
          path,
          token,
          status: 401,
          error: 'unauthorized',
        });
      }
    }
    expect(await state()).toEqual(before);
  });

  it('lists dead letters grouped by error class, shows one with its payload, replays it (dry run first), and audits who did it', async () => {
    const event = orderEvent('order-admin');
    await scenario.publish([event]);
    const { id } = await scenario.deadLetterOf(event.id);

    const list = await call('GET', `/admin/dead-letters?group=${scenario.failing.group}&status=dead&key=order-admin`);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        id,
        group: scenario.failing.group,
        key: 'order-admin',
        errorClass: 'PermanentError',
        status: 'dead',
        replayCount: 0,
      }),
    ]);
    expect(list.body.byErrorClass).toContainEqual(
      expect.objectContaining({ group: scenario.failing.group, errorClass: 'PermanentError' }),
    );

    const shown = await call('GET', `/admin/dead-letters/${id}`);
    expect(shown.body).toMatchObject({
      id,
      eventId: event.id,
      errorMessage: 'no ledger account for order-admin',
      replayTopic: scenario.failing.replayTopic,
    });
    expect(JSON.parse(shown.body.payload)).toMatchObject({ orderId: 'order-admin' });
    expect(shown.body.headers).toMatchObject({ ce_id: event.id, ce_type: event.type });
    expect((await call('GET', '/admin/dead-letters/not-an-id')).status).toBe(400);

    const before = await state();
    const dry = await call('POST', '/admin/dead-letters/replay', { body: { ids: [id], dryRun: true } });
    expect(dry.body).toMatchObject({ dryRun: true, matched: 1, replayed: [] });
    expect(await state()).toEqual(before);

    scenario.fixed = true;
    try {
      const replay = await call('POST', `/admin/dead-letters/${id}/replay`);
      expect(replay).toMatchObject({ status: 200, body: { dryRun: false, matched: 1, replayed: [id] } });
      await waitFor(async () => (await call('GET', `/admin/dead-letters/${id}`)).body.status === 'resolved', {
        what: 'the replayed dead letter to be resolved',
      });
    } finally {
      scenario.fixed = false;
    }
    expect(await scenario.effects(scenario.failing.group)).toEqual([event.id]);

    const audit = await call('GET', '/admin/audit?limit=5');
    expect(audit.body[0]).toMatchObject({
      actor: 'admin:ada',
      action: 'replay',
      count: 1,
      deadLetterIds: [id],
      filter: { ids: [id] },
    });
    expect((await call('POST', '/admin/dead-letters/replay', { body: {} })).status).toBe(400);
    expect((await call('POST', '/admin/dead-letters/purge', { body: { since: 'someday' } })).body).toMatchObject({
      error: 'malformed_request',
    });
  });

  it('reports the outbox backlog and the lag of chosen groups', async () => {
    await ingress.query(
      `INSERT INTO outbox (lane, event_id, topic, key, value, headers) VALUES (0, gen_random_uuid(), 'shop.orders', 'k', '{}', '{}')`,
    );
    const backlog = await call('GET', '/admin/backlog');
    expect(backlog.body).toMatchObject({
      unpublished: 1,
      parked: 0,
      byTopic: [{ topic: 'shop.orders', unpublished: 1 }],
    });

    // The healthy group's last offset goes out up to CONSUMER_COMMIT_INTERVAL_MS after its work: poll until it has.
    const caughtUp = (rows: Array<Record<string, unknown>>) =>
      rows.some(
        (row) =>
          row.groupId === scenario.healthy.group &&
          row.topic === scenario.inputTopic &&
          row.partition === 0 &&
          row.lag === 0,
      );
    const lag = await waitFor(
      async () => {
        const answer = await call('GET', `/admin/lag?group=${scenario.healthy.group}&group=${scenario.storeGroupId}`);
        return answer.status !== 200 || caughtUp(answer.body) ? answer : undefined;
      },
      { what: "the healthy group's offsets committed" },
    );
    expect(lag.status).toBe(200);
    expect(lag.body).toContainEqual(
      expect.objectContaining({ groupId: scenario.healthy.group, topic: scenario.inputTopic, partition: 0, lag: 0 }),
    );
    expect(lag.body).toContainEqual(
      expect.objectContaining({ groupId: scenario.storeGroupId, topic: scenario.failing.dltTopic }),
    );
  });
});
