import { BatchWriter, ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, INVENTORY_RELEASE_STOCK_V1, INVENTORY_RESERVE_STOCK_V1, StockLineV1 } from '@app/contracts';
import { createLogger } from '@app/logger';
import { useTestDataSource, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { EntityManager, QueryRunner } from 'typeorm';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { InventoryEnv } from './inventory.env';
import { ReleaseStockUseCase } from './release-stock.usecase';
import { ReserveStockUseCase } from './reserve-stock.usecase';
import { StockBooks } from './stock-books';

const command = (type: string, lines?: StockLineV1[]): CloudEvent<any> => {
  const sagaId = randomUUID();
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: '/sagas/order-fulfilment',
    type,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    replyto: 'fulfilment.replies',
    data: {
      sagaId,
      orderId: `ord-${sagaId}`,
      idempotencyKey: `${sagaId}:reserve-stock:action`,
      ...(lines && { lines }),
    },
  };
};
const reserve = (...skus: string[]) =>
  command(
    INVENTORY_RESERVE_STOCK_V1,
    skus.map((sku) => ({ sku, quantity: 1 })),
  );
const release = (reserved: CloudEvent<any>) => ({
  ...command(INVENTORY_RELEASE_STOCK_V1),
  data: { ...reserved.data, idempotencyKey: `${reserved.data.sagaId}:reserve-stock:compensation` },
});

/** A consumer transaction of the inventory group applying `batch`, one command at a time, as the runtime does. */
class InventoryTransaction {
  private readonly queued = new Map<BatchWriter<unknown>, unknown[]>();
  readonly ctx: ConsumerContext;

  constructor(
    readonly runner: QueryRunner,
    readonly pid: number,
    readonly batch: CloudEvent<any>[],
  ) {
    const logger = createLogger('stock-lock-order', 'silent');
    this.ctx = {
      group: 'inventory',
      topic: 'inventory.commands',
      partition: 0,
      offset: '0',
      attempt: 1,
      replayCount: 0,
      manager: runner.manager,
      batch,
      logger,
      write: <T>(writer: BatchWriter<T>, row: T) => {
        const rows = this.queued.get(writer as BatchWriter<unknown>) ?? [];
        this.queued.set(writer as BatchWriter<unknown>, [...rows, row]);
      },
    };
  }

  static async begin(runner: QueryRunner, batch: CloudEvent<any>[]): Promise<InventoryTransaction> {
    await runner.connect();
    const [{ pid }] = await runner.query(`SELECT pg_backend_pid() AS pid`);
    await runner.startTransaction();
    return new InventoryTransaction(runner, pid, batch);
  }

  async commit(): Promise<void> {
    for (const [writer, rows] of this.queued) await writer(this.runner.manager as EntityManager, rows);
    await this.runner.commitTransaction();
  }

  async rollback(): Promise<void> {
    if (this.runner.isTransactionActive) await this.runner.rollbackTransaction();
  }
}

describe('inventory: stock rows locked in one order (real Postgres)', () => {
  const db = useTestDataSource('stock-lock-order', 4);
  /** The group's use cases; `initialStock`: units a SKU without a row starts with (INVENTORY_INITIAL_STOCK). */
  const inventory = (initialStock: number) => {
    const books = new StockBooks({
      config: { INVENTORY_INITIAL_STOCK: initialStock },
    } as ConsumerServiceDeps<InventoryEnv>);
    return { reserve: new ReserveStockUseCase(books), release: new ReleaseStockUseCase(books) };
  };
  let group = inventory(0);
  const apply = (tx: InventoryTransaction, event: CloudEvent<any>) =>
    event.type === INVENTORY_RESERVE_STOCK_V1
      ? group.reserve.execute(event, tx.ctx)
      : group.release.execute(event, tx.ctx);

  async function setStock(units: Record<string, number>): Promise<void> {
    for (const [sku, available] of Object.entries(units))
      await db.dataSource.query(
        `INSERT INTO stock (sku, available) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET available = $2`,
        [sku, available],
      );
  }

  async function stock(skus: string[]): Promise<Record<string, number>> {
    const rows: Array<{ sku: string; available: number }> = await db.dataSource.query(
      `SELECT sku, available FROM stock WHERE sku = ANY($1) ORDER BY sku`,
      [skus],
    );
    return Object.fromEntries(rows.map((row) => [row.sku, row.available]));
  }

  /**
   * Two consumer transactions (two processes of the group) whose batches take the same SKUs in opposite orders: the
   * first applies its first command; the second begins its own first command, and the first goes on to its second
   * once the second's first command is done or waits for a lock. Returns the SQLSTATE of each transaction's failure.
   */
  async function interleave(first: CloudEvent<any>[], second: CloudEvent<any>[]): Promise<string[]> {
    const a = await InventoryTransaction.begin(db.dataSource.createQueryRunner(), first);
    const b = await InventoryTransaction.begin(db.dataSource.createQueryRunner(), second);
    const failures: string[] = [];
    const run = async (tx: InventoryTransaction, events: CloudEvent<any>[]) => {
      try {
        for (const event of events) await apply(tx, event);
        await tx.commit();
      } catch (error) {
        failures.push((error as { code?: string }).code ?? String(error));
        await tx.rollback();
      }
    };
    try {
      await apply(a, first[0]);
      let bFirstDone = false;
      const bFirst = apply(b, second[0]).then(() => (bFirstDone = true));
      await waitFor(
        async () => {
          if (bFirstDone) return true;
          const [activity] = await db.dataSource.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [
            b.pid,
          ]);
          return activity?.wait_event_type === 'Lock';
        },
        { what: "the second transaction's first command done, or waiting for a lock" },
      );
      await Promise.all([
        run(a, first.slice(1)),
        bFirst.then(
          () => run(b, second.slice(1)),
          async (error) => {
            failures.push((error as { code?: string }).code ?? String(error));
            await b.rollback();
          },
        ),
      ]);
      return failures;
    } finally {
      await Promise.all([a.runner.release(), b.runner.release()]);
    }
  }

  it('reserves several SKUs in two transactions taking them in opposite orders without a deadlock', async () => {
    await setStock({ 'lock-a': 10, 'lock-b': 10, 'lock-c': 10, 'lock-d': 10 });
    const failures = await interleave(
      [reserve('lock-a', 'lock-c'), reserve('lock-b', 'lock-d')],
      [reserve('lock-b', 'lock-d'), reserve('lock-a', 'lock-c')],
    );

    expect(failures).toEqual([]);
    expect(await stock(['lock-a', 'lock-b', 'lock-c', 'lock-d'])).toEqual({
      'lock-a': 8,
      'lock-b': 8,
      'lock-c': 8,
      'lock-d': 8,
    });
  });

  it('releases and reserves in two transactions taking the SKUs in opposite orders without a deadlock', async () => {
    await setStock({ 'free-a': 10, 'free-b': 10 });
    const earlier = [reserve('free-a', 'free-b'), reserve('free-a', 'free-b')];
    const setup = await InventoryTransaction.begin(db.dataSource.createQueryRunner(), earlier);
    for (const event of earlier) await apply(setup, event);
    await setup.commit();
    await setup.runner.release();

    const failures = await interleave(
      [reserve('free-a'), release(earlier[0])],
      [reserve('free-b'), release(earlier[1])],
    );

    expect(failures).toEqual([]);
    expect(await stock(['free-a', 'free-b'])).toEqual({ 'free-a': 9, 'free-b': 9 });
  });

  it('adds SKUs it has no row for in two transactions taking them in opposite orders without a deadlock', async () => {
    group = inventory(5);
    const failures = await interleave(
      [reserve('new-a', 'new-c'), reserve('new-b', 'new-d')],
      [reserve('new-b', 'new-d'), reserve('new-a', 'new-c')],
    );
    group = inventory(0);

    expect(failures).toEqual([]);
    expect(await stock(['new-a', 'new-b', 'new-c', 'new-d'])).toEqual({
      'new-a': 3,
      'new-b': 3,
      'new-c': 3,
      'new-d': 3,
    });
  });

  it('reserves once for a saga that two transactions reserve at once (a rebalance overlap): the later rolls back', async () => {
    group = inventory(0);
    await setStock({ 'twice-a': 10 });
    const command = reserve('twice-a');
    // The second transaction reads no reservation for the saga, then waits for the stock row the first holds; the
    // first commits its reservation; the second's insert of the same saga's reservation comes back short.
    const failures = await interleave([command], [command]);

    expect(failures).toEqual([
      'Error: 1 of 1 sagas got a reservation from another transaction meanwhile; retrying on what is there now',
    ]);
    expect(await stock(['twice-a'])).toEqual({ 'twice-a': 9 });
    const reservations = await db.dataSource.query(`SELECT status FROM stock_reservations WHERE saga_id = $1`, [
      command.data.sagaId,
    ]);
    expect(reservations).toEqual([{ status: 'reserved' }]);
  });

  it('applies a batch in the same few statements whatever its size: reservations, releases and refusals', async () => {
    /** Statements the transaction sends from its first command to its commit, and the stock they leave. */
    async function statementsFor(size: number, sku: string): Promise<{ statements: number; left: number }> {
      await setStock({ [sku]: size });
      const earlier = reserve(sku);
      const setup = await InventoryTransaction.begin(db.dataSource.createQueryRunner(), [earlier]);
      await apply(setup, earlier);
      await setup.commit();
      await setup.runner.release();
      // The earlier reservation given back, then one more reservation than there are units: the last is refused.
      const batch = [release(earlier), ...Array.from({ length: size + 1 }, () => reserve(sku))];
      const tx = await InventoryTransaction.begin(db.dataSource.createQueryRunner(), batch);
      const client = (await tx.runner.connect()) as { query: (...args: unknown[]) => unknown };
      const sent = jest.spyOn(client, 'query');
      try {
        for (const event of batch) await apply(tx, event);
        await tx.commit();
        return { statements: sent.mock.calls.length, left: (await stock([sku]))[sku] };
      } finally {
        sent.mockRestore();
        await tx.runner.release();
      }
    }

    const small = await statementsFor(2, 'batch-small');
    const large = await statementsFor(40, 'batch-large');
    expect(small.left).toBe(0);
    expect(large.left).toBe(0);
    // Lock the reservations, lock the stock, insert the new reservations, update the released one, set the stock,
    // insert the replies; the commit. Not one more per command.
    expect(large.statements).toBe(small.statements);
    expect(large.statements).toBe(7);
  });
});
