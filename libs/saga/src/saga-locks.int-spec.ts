import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { SagaCoordinator, SagaReplyEvent, SagaTransaction } from './saga-coordinator';
import { defineSaga, SagaCommand } from './saga-definition';
import { SagaLocks } from './saga-locks';
import { sagaTransaction } from './saga-transaction';
import { SagaRowMove, SagasRepository } from './sagas.repository';

const command = (name: string): SagaCommand<unknown> => ({
  topic: `${name}.commands`,
  type: `${name}.do.v1`,
  data: () => ({}),
  succeeded: `${name}.done.v1`,
  failed: [`${name}.do-failed.v1`],
});

const demo = defineSaga({
  type: 'demo',
  source: '/sagas/demo',
  replyTopic: 'demo.replies',
  steps: [
    { name: 'reserve', action: command('reserve'), timeoutMs: 60_000, retries: 0 },
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

  /** The batch as the fulfilment group applies it: locks from one statement, moves written at the end. */
  async function applyBatch(replies: SagaReplyEvent[]): Promise<void> {
    await dataSource.transaction(async (manager: EntityManager) => {
      const base = sagaTransaction(manager);
      const locks = new SagaLocks(manager, () => replies.map((event) => event.data.sagaId));
      const moves: SagaRowMove[] = [];
      const tx: SagaTransaction = {
        ...base,
        lock: (id) => locks.lock(id),
        move: (row, to) => moves.push(locks.move(row, to)),
      };
      for (const event of replies) await coordinator.reply(tx, event);
      await SagasRepository.moveMany(manager, moves);
      await base.flush();
    });
  }

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

  it('rolls the transaction back when a queued move finds its saga at another version', async () => {
    const [id] = await started([`ord-${randomUUID()}`]);
    const stale = async () =>
      dataSource.transaction(async (manager) => {
        const to = { state: 'running' as const, step: 1, stepName: 'charge', attempts: 1, timeoutMs: null };
        const move = { id, fromVersion: 7, to: { ...to, failure: null, lastError: null, results: null, ended: false } };
        await SagasRepository.moveMany(manager, [move]);
      });
    await expect(stale()).rejects.toThrow(`saga ${id} is no longer at version 7`);
    expect(await SagasRepository.lock(dataSource.manager, id)).toMatchObject({ version: 1, step: 0 });
  });
});
