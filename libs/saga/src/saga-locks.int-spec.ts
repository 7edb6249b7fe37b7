import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import { CloudEvent } from '@app/contracts';
import { createTestDatabase, preparedPlan, tableReads, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { SagaCoordinator, SagaReplyEvent, SagaTransaction } from './saga-coordinator';
import { defineSaga, SagaCommand } from './saga-definition';
import { SagaLocks } from './saga-locks';
import { sagaTransaction } from './saga-transaction';
import { lockManyStatement, SagaRowMove, SagasRepository } from './sagas.repository';

const command = (name: string, verb = 'do'): SagaCommand<unknown> => ({
  topic: `${name}.commands`,
  type: `${name}.${verb}.v1`,
  data: () => ({}),
  succeeded: `${name}.${verb}ne.v1`,
  failed: [`${name}.${verb}-failed.v1`],
});

const CANCELLED = 'demo.order-cancelled.v1';
const PLACED = 'demo.order-placed.v1';

const demo = defineSaga({
  type: 'demo',
  source: '/sagas/demo',
  replyTopic: 'demo.replies',
  cancelledBy: [{ type: CANCELLED, correlationId: (data: { order: string }) => data.order }],
  steps: [
    {
      name: 'reserve',
      action: command('reserve'),
      compensation: command('reserve', 'undo'),
      timeoutMs: 60_000,
      retries: 0,
    },
    { name: 'charge', action: command('charge'), timeoutMs: 60_000, retries: 0 },
    { name: 'ship', action: command('ship'), timeoutMs: 60_000, retries: 0 },
  ],
});

describe('a consumer transaction moving many sagas: one lock statement, moves queued (real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const coordinator = new SagaCoordinator([demo], createLogger('saga-locks-test', 'silent'));

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'saga-locks-test', poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const reply = (sagaId: string, type: string): SagaReplyEvent => ({
    specversion: '1.0',
    id: randomUUID(),
    source: '/participants/test',
    type,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    data: { sagaId, commandId: randomUUID() },
  });
  const cancelled = (order: string): CloudEvent<{ order: string }> => ({
    specversion: '1.0',
    id: randomUUID(),
    source: '/shop',
    type: CANCELLED,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    data: { order },
  });

  const placed = (order: string): CloudEvent<{ order: string }> => ({ ...cancelled(order), type: PLACED });

  async function started(orders: string[]): Promise<string[]> {
    const ids: string[] = [];
    await dataSource.transaction(async (manager) => {
      const tx = sagaTransaction(manager);
      for (const order of orders) {
        const start = { correlationId: order, startEventId: randomUUID(), data: {} };
        ids.push((await coordinator.start(tx, 'demo', start))!.sagaId);
      }
      await tx.flush();
    });
    return ids;
  }

  /**
   * The batch as the fulfilment group applies it: locks from one statement, starts, moves and history written at the
   * end (`between` runs after the events, before those writes).
   */
  async function applyBatch(events: CloudEvent<any>[], between?: () => Promise<void>): Promise<void> {
    await dataSource.transaction(async (manager: EntityManager) => {
      const base = sagaTransaction(manager);
      const locks = new SagaLocks(manager, () => ({
        ids: events.filter((event) => event.data.sagaId).map((event) => event.data.sagaId),
        correlations: events
          .filter((event) => event.type === CANCELLED || event.type === PLACED)
          .map((event) => ({ type: 'demo', correlationId: event.data.order })),
      }));
      const moves: SagaRowMove[] = [];
      const tx: SagaTransaction = {
        ...base,
        lock: (id) => locks.lock(id),
        lockCorrelated: (type, correlationId) => locks.lockCorrelated(type, correlationId),
        move: (row, to) => moves.push(locks.move(row, to)),
        insert: (saga) => locks.insert(saga),
      };
      for (const event of events) {
        if (event.type === PLACED)
          await coordinator.start(tx, 'demo', { correlationId: event.data.order, startEventId: event.id, data: {} });
        else await (event.type === CANCELLED ? coordinator.cancel(tx, event) : coordinator.reply(tx, event));
      }
      await between?.();
      await locks.writeStarts();
      await SagasRepository.moveMany(manager, moves);
      await base.flush();
    });
  }

  const sagasOf = (orders: string[]): Promise<Array<{ correlation_id: string; state: string; version: number }>> =>
    dataSource.query(
      `SELECT correlation_id, state, version FROM sagas WHERE type = 'demo' AND correlation_id = ANY($1)
        ORDER BY correlation_id`,
      [orders],
    );
  const commandsOf = async (order: string): Promise<string[]> =>
    (await dataSource.query(`SELECT headers->>'ce_type' AS type FROM outbox WHERE key = $1 ORDER BY id`, [order])).map(
      (row: { type: string }) => row.type,
    );

  it('starts a batch of sagas with one lock and one insert statement; a repeated start starts nothing', async () => {
    const [a, b, before] = ['a', 'b', 'before'].map((name) => `ord-${name}-${randomUUID()}`);
    const [beforeId] = await started([before]);
    const spies = (['lockMany', 'insertMany', 'insert', 'lock', 'lockByCorrelation'] as const).map((name) =>
      jest.spyOn(SagasRepository, name),
    );
    try {
      await applyBatch([placed(a), placed(b), placed(a), placed(before), reply(beforeId, 'reserve.done.v1')]);
      expect(spies.map((spy) => spy.mock.calls.length)).toEqual([1, 1, 0, 0, 0]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(await sagasOf([a, b, before])).toEqual(
      [
        { correlation_id: a, state: 'running', version: 1 },
        { correlation_id: b, state: 'running', version: 1 },
        { correlation_id: before, state: 'running', version: 2 },
      ].sort((x, y) => x.correlation_id.localeCompare(y.correlation_id)),
    );
    expect(await commandsOf(a)).toEqual(['reserve.do.v1']);
    expect(await commandsOf(b)).toEqual(['reserve.do.v1']);
    expect(await commandsOf(before)).toEqual(['reserve.do.v1', 'charge.do.v1']);
  });

  it('cancels a saga placed earlier in the same batch; a cancellation before the order cancels nothing', async () => {
    const [placedFirst, cancelledFirst] = ['placed-first', 'cancelled-first'].map(
      (name) => `ord-${name}-${randomUUID()}`,
    );
    await applyBatch([placed(placedFirst), cancelled(placedFirst), cancelled(cancelledFirst), placed(cancelledFirst)]);

    expect(await sagasOf([placedFirst])).toEqual([{ correlation_id: placedFirst, state: 'compensating', version: 2 }]);
    expect(await commandsOf(placedFirst)).toEqual(['reserve.do.v1', 'reserve.undo.v1']);
    expect(await sagasOf([cancelledFirst])).toEqual([{ correlation_id: cancelledFirst, state: 'running', version: 1 }]);
    expect(await commandsOf(cancelledFirst)).toEqual(['reserve.do.v1']);
  });

  it('rolls back a start that another transaction made meanwhile (a rebalance overlap), writing nothing of it', async () => {
    const order = `ord-raced-${randomUUID()}`;
    const other = `ord-bystander-${randomUUID()}`;
    const winner = { id: '' };
    const raced = applyBatch([placed(order), placed(other)], async () => {
      // The other process's transaction commits the same order's saga while this one has queued its own.
      winner.id = (await started([order]))[0];
    });
    await expect(raced).rejects.toThrow(`a demo saga for ${order} was started by another transaction meanwhile`);

    const sagas: Array<{ id: string }> = await dataSource.query(
      `SELECT id FROM sagas WHERE type = 'demo' AND correlation_id = ANY($1)`,
      [[order, other]],
    );
    expect(sagas).toEqual([{ id: winner.id }]);
    expect(await commandsOf(order)).toEqual(['reserve.do.v1']);
    expect(await commandsOf(other)).toEqual([]);
  });

  it('moves several sagas, one of them twice in the same transaction, each from where it stood', async () => {
    const [a, b] = await started([`ord-${randomUUID()}`, `ord-${randomUUID()}`]);
    await applyBatch([reply(a, 'reserve.done.v1'), reply(b, 'reserve.done.v1'), reply(a, 'charge.done.v1')]);

    const [sagaA, sagaB] = await Promise.all([a, b].map((id) => SagasRepository.lock(dataSource.manager, id)));
    expect(sagaA).toMatchObject({ state: 'running', step: 2, version: 3 });
    expect(sagaB).toMatchObject({ state: 'running', step: 1, version: 2 });
    const commands: Array<{ type: string }> = await dataSource.query(
      `SELECT headers->>'ce_type' AS type FROM outbox WHERE key = $1 ORDER BY id`,
      [sagaA!.correlationId],
    );
    expect(commands.map((row) => row.type)).toEqual(['reserve.do.v1', 'charge.do.v1', 'ship.do.v1']);
  });

  it('locks the sagas of replies and cancellations in one statement, and cancels a saga from where a reply left it', async () => {
    const [orderA, orderB, orderC] = [`ord-${randomUUID()}`, `ord-${randomUUID()}`, `ord-${randomUUID()}`];
    const [a, b] = await started([orderA, orderB]);
    const lockMany = jest.spyOn(SagasRepository, 'lockMany');
    const lockOne = jest.spyOn(SagasRepository, 'lock');
    try {
      // a: reserved, then cancelled in the same transaction; b: cancelled at its first step; c: no saga at all.
      await applyBatch([reply(a, 'reserve.done.v1'), cancelled(orderA), cancelled(orderB), cancelled(orderC)]);
      expect(lockMany).toHaveBeenCalledTimes(1);
      expect(lockOne).not.toHaveBeenCalled();
    } finally {
      lockMany.mockRestore();
      lockOne.mockRestore();
    }
    const [sagaA, sagaB] = await Promise.all([a, b].map((id) => SagasRepository.lock(dataSource.manager, id)));
    expect(sagaA).toMatchObject({
      state: 'compensating',
      step: 0,
      version: 3,
      cancellation: 'demo.order-cancelled.v1',
    });
    expect(sagaB).toMatchObject({
      state: 'compensating',
      step: 0,
      version: 2,
      cancellation: 'demo.order-cancelled.v1',
    });
    const commands: Array<{ type: string }> = await dataSource.query(
      `SELECT headers->>'ce_type' AS type FROM outbox WHERE key = $1 ORDER BY id`,
      [orderA],
    );
    // Cancelled while charging: charge has no compensation, so the reservation is undone.
    expect(commands.map((row) => row.type)).toEqual(['reserve.do.v1', 'charge.do.v1', 'reserve.undo.v1']);
  });

  it('rolls the transaction back when a queued move finds its saga at another version', async () => {
    const [id] = await started([`ord-${randomUUID()}`]);
    const stale = async () =>
      dataSource.transaction(async (manager) => {
        const to = { state: 'running' as const, step: 1, stepName: 'charge', attempts: 1, timeoutMs: null };
        const unchanged = { failure: null, lastError: null, results: null, ended: false, cancellation: null };
        const retry = { refusals: 0, failingSince: null, backingOff: false };
        const move = { id, fromVersion: 7, to: { ...to, ...unchanged, ...retry } };
        await SagasRepository.moveMany(manager, [move]);
      });
    await expect(stale()).rejects.toThrow(`saga ${id} is no longer at version 7`);
    expect(await SagasRepository.lock(dataSource.manager, id)).toMatchObject({ version: 1, step: 0 });
  });

  it('finds the sagas it locks by index, reading no saga it does not lock, among 20,000 (custom and generic plans)', async () => {
    await dataSource.query(
      `INSERT INTO sagas (id, type, correlation_id, start_event_id, state, step, step_name, attempts, version, data)
       SELECT gen_random_uuid(), 'plan', 'ord-' || n, 'evt-' || n, 'running', 0, 'reserve', 0, 1, '{}'
         FROM generate_series(1, 20000) AS n`,
    );
    await dataSource.query('ANALYZE sagas');
    const ids: string[] = (
      await dataSource.query(`SELECT id FROM sagas WHERE type = 'plan' AND correlation_id IN ('ord-1', 'ord-2')`)
    ).map((row: { id: string }) => row.id);
    const correlations = ['ord-3', 'ord-4', 'ord-5'].map((correlationId) => ({ type: 'plan', correlationId }));
    const statement = { ...lockManyStatement(ids, correlations), types: 'uuid[], varchar[], varchar[]' };

    for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
      const reads = tableReads(await preparedPlan(dataSource, statement, mode), 'sagas');
      expect(reads.filter((read) => read.node === 'Seq Scan')).toEqual([]);
      // Each saga locked is read at most twice: found by its correlation, then by its id; a scan read 20,000.
      expect(reads.reduce((sum, read) => sum + read.rows, 0)).toBeLessThanOrEqual(2 * 5);
    }
    const locked = await dataSource.transaction((manager) => SagasRepository.lockMany(manager, ids, correlations));
    expect(locked.map((saga) => saga.correlationId).sort()).toEqual(['ord-1', 'ord-2', 'ord-3', 'ord-4', 'ord-5']);
  });
});
