import {
  ConfirmationRequiredError,
  deadLetterIdOf,
  DeadLetterAudit,
  purgeDeadLetters,
  purgeParkedKey,
} from '@app/dead-letters';
import { connect } from '@app/db';
import { createTestDatabase, orderEvent, ParkingScenario, TestDatabase, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { findGroupStatuses } from '../consumer-event-status.repository';

describe('parking a key behind its dead letter (real Kafka, real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let scenario: ParkingScenario;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'key-parking-test', poolSize: 8 });
    // The store starts in the first test: the key must be parked before the dead letter is indexed.
    scenario = await ParkingScenario.start(dataSource, { store: false });
  });

  afterAll(async () => {
    await scenario?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  const metric = async (name: string) => {
    const text = await scenario.metrics.registry.getSingleMetricAsString(name);
    return Number(new RegExp(`group="${scenario.group}"} ([\\d.]+)`).exec(text)?.[1]);
  };

  it('parks the key before the store indexed its dead letter, lets other keys by, and unparks in order; a parked event that fails again keeps the rest behind it', async () => {
    const [first, second, third] = ['a', 'b', 'c'].map(() => orderEvent('order-k1'));
    const others = Array.from({ length: 10 }, (_, index) => orderEvent(`order-other-${index}`));
    scenario.rejected.add(first.id).add(second.id);
    await scenario.publish([first, others[0], second, ...others.slice(1, 5), third, ...others.slice(5)]);

    await waitFor(async () => (await scenario.effects()).length === 10, { what: 'the other keys applied' });
    const headId = deadLetterIdOf(scenario.group, scenario.topic, 0, '0');
    const parked = await waitFor(
      async () => {
        const rows = await scenario.rowsOfKey('order-k1');
        return rows.length === 2 ? rows : undefined;
      },
      { what: 'two events parked' },
    );
    expect(parked).toEqual([
      expect.objectContaining({ event_id: second.id, status: 'parked', blocked_by: headId, error_class: 'KeyParked' }),
      expect.objectContaining({ event_id: third.id, status: 'parked', blocked_by: headId }),
    ]);
    expect(await scenario.parkedKey('order-k1')).toEqual({ head_dead_letter_id: headId, head_event_id: first.id });
    expect(await findGroupStatuses(dataSource, third.id)).toEqual([
      expect.objectContaining({
        group: scenario.group,
        status: 'parked',
        lastError: `parked behind dead letter ${headId}`,
      }),
    ]);
    expect(await scenario.effects('order-k1')).toEqual([]);
    expect([await metric('hookrail_consumer_parked_keys'), await metric('hookrail_consumer_parked_events')]).toEqual([
      1, 2,
    ]);
    expect(await metric('hookrail_consumer_parked_oldest_age_seconds')).toBeGreaterThan(0);

    await scenario.startStore();
    const head = await scenario.deadLetterOf(first.id);
    expect(head).toMatchObject({ id: headId, status: 'dead' });

    scenario.rejected.delete(first.id);
    expect(await scenario.replay([head.id])).toEqual([head.id]);
    // first is applied; second is replayed next and fails again: the key now waits behind it, third still parked.
    await scenario.deadLetterOf(second.id, (row) => row.status === 'dead' && row.replay_count === 1);
    expect(await scenario.effects('order-k1')).toEqual([first.id]);
    await waitFor(async () => (await scenario.parkedKey('order-k1'))?.head_event_id === second.id, {
      what: 'the key parked behind its second event',
    });
    const fourth = orderEvent('order-k1');
    await scenario.publish([fourth]);
    await scenario.deadLetterOf(fourth.id, (row) => row.status === 'parked');
    const queue = await scenario.rowsOfKey('order-k1');
    expect(queue.filter((row) => row.status === 'parked').map((row) => [row.event_id, row.blocked_by])).toEqual([
      [third.id, queue.find((row) => row.event_id === second.id)!.id],
      [fourth.id, queue.find((row) => row.event_id === second.id)!.id],
    ]);

    scenario.rejected.delete(second.id);
    await scenario.replay([queue.find((row) => row.event_id === second.id)!.id]);
    await waitFor(async () => (await scenario.parkedKey('order-k1')) === undefined, { what: 'the key released' });
    expect(await scenario.effects('order-k1')).toEqual([first.id, second.id, third.id, fourth.id]);
    expect((await scenario.rowsOfKey('order-k1')).map((row) => row.status)).toEqual(Array(4).fill('resolved'));
    expect(await metric('hookrail_consumer_parked_keys')).toBe(0);

    const fifth = orderEvent('order-k1');
    await scenario.publish([fifth]);
    await waitFor(async () => (await scenario.effects('order-k1')).includes(fifth.id), { what: 'the next live event' });
  });

  it('purging the head asks for a confirmation, then releases the parked events in order; purging the whole key drops them all, audited', async () => {
    const [head, ...behind] = [1, 2, 3].map(() => orderEvent('order-k2'));
    const [otherHead, ...otherBehind] = [1, 2, 3].map(() => orderEvent('order-k3'));
    scenario.rejected.add(head.id).add(otherHead.id);
    await scenario.publish([head, otherHead, ...behind, ...otherBehind]);
    const headRow = await scenario.deadLetterOf(head.id);
    const otherHeadRow = await scenario.deadLetterOf(otherHead.id);
    await scenario.deadLetterOf(behind[1].id, (row) => row.status === 'parked');
    await scenario.deadLetterOf(otherBehind[1].id, (row) => row.status === 'parked');

    const unconfirmed = purgeDeadLetters(dataSource, { filter: { ids: [headRow.id] }, actor: 'test:ops' });
    await expect(unconfirmed).rejects.toThrow(ConfirmationRequiredError);
    await expect(unconfirmed).rejects.toMatchObject({
      parked: [{ deadLetterId: headRow.id, group: scenario.group, key: 'order-k2', parkedEvents: 2 }],
    });
    expect((await scenario.deadLetterOf(head.id)).status).toBe('dead');

    const purged = await purgeDeadLetters(dataSource, {
      filter: { ids: [headRow.id] },
      actor: 'test:ops',
      confirmParked: true,
    });
    expect(purged).toMatchObject({ purged: [headRow.id], parkedBehind: [{ key: 'order-k2', parkedEvents: 2 }] });
    await waitFor(async () => (await scenario.parkedKey('order-k2')) === undefined, { what: 'order-k2 released' });
    expect(await scenario.effects('order-k2')).toEqual(behind.map((event) => event.id));

    await expect(
      purgeParkedKey(dataSource, { group: scenario.group, key: 'order-k3', actor: 'test:ops' }),
    ).rejects.toThrow(ConfirmationRequiredError);
    const whole = await purgeParkedKey(dataSource, {
      group: scenario.group,
      key: 'order-k3',
      actor: 'test:lin',
      confirmed: true,
    });
    expect(whole).toMatchObject({ dryRun: false, wasParked: true, parkedEvents: 2 });
    expect(whole.purged).toHaveLength(3);
    expect(await scenario.parkedKey('order-k3')).toBeUndefined();
    expect((await scenario.rowsOfKey('order-k3')).map((row) => row.status)).toEqual(Array(3).fill('purged'));
    expect((await new DeadLetterAudit(dataSource).recent(1))[0]).toMatchObject({
      actor: 'test:lin',
      action: 'purge',
      filter: { group: scenario.group, key: 'order-k3', wholeKey: true },
      count: 3,
      deadLetterIds: expect.arrayContaining([otherHeadRow.id]),
    });

    const later = orderEvent('order-k3');
    await scenario.publish([later]);
    await waitFor(async () => (await scenario.effects('order-k3')).includes(later.id), { what: 'the next event' });
    expect(await scenario.effects('order-k3')).toEqual([later.id]);
  });

  it('stores each event of a parked key once, however many copies the relay published (one dead letter, one parked row)', async () => {
    const [head, behind, last] = [1, 2, 3].map(() => orderEvent('order-k4'));
    const produced = await scenario.deadLettersProduced();
    scenario.rejected.add(head.id);
    await scenario.publish([head, behind, head, behind, head]);
    await scenario.publish([last]);
    await scenario.deadLetterOf(last.id, (row) => row.status === 'parked');
    const rows = await scenario.rowsOfKey('order-k4');
    expect(rows.map((row) => [row.event_id, row.status])).toEqual([
      [head.id, 'dead'],
      [behind.id, 'parked'],
      [last.id, 'parked'],
    ]);
    expect(await scenario.deadLettersProduced()).toBe(produced + 1);

    scenario.rejected.delete(head.id);
    await scenario.replay([rows[0].id]);
    await waitFor(async () => (await scenario.parkedKey('order-k4')) === undefined, { what: 'order-k4 released' });
    expect(await scenario.effects('order-k4')).toEqual([head.id, behind.id, last.id]);
    expect((await scenario.rowsOfKey('order-k4')).map((row) => row.status)).toEqual(Array(3).fill('resolved'));
  });
});

describe('a group that does not park keys (real Kafka, real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let scenario: ParkingScenario;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'key-order-none-test', poolSize: 6 });
    scenario = await ParkingScenario.start(dataSource, { keyOrder: 'none' });
  });

  afterAll(async () => {
    await scenario?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('applies the later events of a key whose event it dead-lettered, as before', async () => {
    const [first, second, third] = [1, 2, 3].map(() => orderEvent('order-n1'));
    scenario.rejected.add(first.id);
    await scenario.publish([first, second, third]);
    await scenario.deadLetterOf(first.id);
    await waitFor(async () => (await scenario.effects()).length === 2, { what: 'the later events applied' });
    expect(await scenario.effects()).toEqual([second.id, third.id]);
    expect(await scenario.parkedKey('order-n1')).toBeUndefined();
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM parked_keys`)).toEqual([{ n: 0 }]);
  });

  it('dead-letters a poison event once, however many copies the relay published', async () => {
    const [poison, after] = [1, 2].map(() => orderEvent('order-n2'));
    const produced = await scenario.deadLettersProduced();
    scenario.rejected.add(poison.id);
    await scenario.publish([poison, poison, after, poison]);
    await scenario.deadLetterOf(poison.id);
    const marker = orderEvent('order-n2');
    await scenario.publish([marker]);
    await waitFor(async () => (await scenario.effects('order-n2')).includes(marker.id), { what: 'the marker applied' });
    expect(await scenario.effects('order-n2')).toEqual([after.id, marker.id]);
    expect(await scenario.deadLettersProduced()).toBe(produced + 1);
    expect((await scenario.rowsOfKey('order-n2')).map((row) => [row.event_id, row.status])).toEqual([
      [poison.id, 'dead'],
    ]);
  });
});
