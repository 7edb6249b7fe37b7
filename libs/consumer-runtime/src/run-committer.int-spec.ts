import { createLogger } from '@app/logger';
import { useTestDataSource, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { DEFAULT_RETRY_POLICY } from './backoff';
import { RunCommitter, RunItem, RunResult } from './run-committer';
import { Apply } from './steps/step';

/** A run of `size` events of one partition, as the batch processor hands it over. */
function run(partition: number, size: number): RunItem[] {
  return Array.from({ length: size }, (_, index) => {
    const event = {
      specversion: '1.0' as const,
      id: randomUUID(),
      source: '/tests',
      type: 'test.thing.v1',
      time: new Date().toISOString(),
      datacontenttype: 'application/json' as const,
      data: {},
    };
    const message = { key: null, value: null, timestamp: '0', attributes: 0, offset: String(index), size: 0 };
    const handler = { type: event.type, handler: async () => undefined, policy: { retry: DEFAULT_RETRY_POLICY } };
    const controls = { heartbeat: async () => undefined, shouldStop: () => false };
    const reading = { kind: 'event' as const, topic: 't', partition, message, event, replayCount: 0, handler };
    return { topic: 't', partition, message, controls, reading };
  });
}

const idsOf = (items: RunItem[]) => items.map((item) => (item.reading.kind === 'event' ? item.reading.event.id : ''));

describe('RunCommitter: the runs of several partitions in one transaction (real Postgres)', () => {
  const db = useTestDataSource('run-committer', 4);
  /** The transactions the applied events ran in, by event id. */
  const transactionOf = new Map<string, EntityManager>();
  /** Events whose handler throws. */
  const failing = new Set<string>();
  /** While set, every handler waits for it first, and says so (`entered`). */
  let gate: Promise<void> | undefined;
  let entered: () => void = () => undefined;
  const apply: Apply = async (handled, _attempt, tx) => {
    if (gate) entered();
    await gate;
    if (failing.has(handled.event.id)) throw new Error(`handler of ${handled.event.id} failed`);
    transactionOf.set(handled.event.id, tx.manager);
    // As the dedupe step does: the event's claim is taken, so its dedupe row stays.
    return tx.claims.take(handled.event.id) ? 'applied' : 'duplicate';
  };
  const committer = (maxBatchSize = 500) =>
    new RunCommitter({
      group: 'run-committer-test',
      dataSource: db.dataSource,
      logger: createLogger('run-committer-test', 'silent'),
      maxBatchSize,
      apply,
    });

  async function committed(ids: string[]): Promise<string[]> {
    const rows: Array<{ event_id: string }> = await db.dataSource.query(
      `SELECT event_id FROM processed_events WHERE "group" = 'run-committer-test' AND event_id = ANY($1)`,
      [ids],
    );
    return rows.map((row) => row.event_id).sort();
  }
  const transactions = (ids: string[]) => new Set(ids.map((id) => transactionOf.get(id))).size;

  it('applies runs handed over together in one transaction, each run getting its own result', async () => {
    const runs = [run(0, 3), run(1, 2), run(2, 4)];
    const rc = committer();
    const results = await Promise.all(runs.map((items) => rc.commit(items)));

    expect(results).toEqual(runs.map((items) => ({ covered: items.length, outcomes: items.map(() => 'applied') })));
    const ids = runs.flatMap(idsOf);
    expect(transactions(ids)).toBe(1);
    expect(await committed(ids)).toEqual([...ids].sort());
  });

  it('applies each run alone when the shared transaction fails: only the run at fault learns where it failed', async () => {
    const runs = [run(0, 2), run(1, 3), run(2, 2)];
    failing.add(idsOf(runs[1])[1]);
    const rc = committer();
    const results: RunResult[] = await Promise.all(runs.map((items) => rc.commit(items)));

    expect(results[0]).toEqual({ covered: 2, outcomes: ['applied', 'applied'] });
    expect(results[2]).toEqual({ covered: 2, outcomes: ['applied', 'applied'] });
    expect(results[1]).toMatchObject({ failed: { index: 1 } });
    expect(await committed(runs.flatMap(idsOf))).toEqual([...idsOf(runs[0]), ...idsOf(runs[2])].sort());
    // Runs 0 and 2 were applied again, each in a transaction of its own.
    expect(transactions([...idsOf(runs[0]), ...idsOf(runs[2])])).toBe(2);
  });

  it('lets runs that come while a transaction is in flight share the next one, never waiting when idle', async () => {
    const rc = committer();
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const first = run(0, 1);
    const firstDone = rc.commit(first);
    await inFlight;
    // The first run's transaction is in flight (its handler waits); two more runs arrive meanwhile.
    const later = [run(1, 1), run(2, 1)];
    const laterDone = later.map((items) => rc.commit(items));
    open();
    gate = undefined;
    await Promise.all([firstDone, ...laterDone]);

    expect(transactions([...idsOf(first), ...later.flatMap(idsOf)])).toBe(2);
    expect(transactions(later.flatMap(idsOf))).toBe(1);
  });

  it('keeps a transaction within maxBatchSize events, running what does not fit in another at the same time', async () => {
    const runs = [run(0, 3), run(1, 3), run(2, 3)];
    const rc = committer(6);
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    let inFlight = 0;
    const entries: number[] = [];
    entered = () => entries.push(++inFlight);
    const done = Promise.all(runs.map((items) => rc.commit(items)));
    // Both transactions reach their handlers before either is let go.
    await waitFor(async () => entries.length >= 2, { what: 'both transactions in flight' });
    open();
    gate = undefined;
    entered = () => undefined;
    await done;

    expect(transactions([...idsOf(runs[0]), ...idsOf(runs[1])])).toBe(1);
    expect(transactions(runs.flatMap(idsOf))).toBe(2);
  });
});
