import { connect } from '@app/db';
import { createTestDatabase, orderEvent, TestDatabase, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import {
  ClaimedAgentTask,
  claimAgentTask,
  claimAgentTaskPastCeiling,
  claimAgentTasks,
  completeAgentTask,
  enqueueAgentTask,
  failAgentTask,
  NewAgentTask,
  releaseAgentTasksWaitingOn,
  renewAgentTaskLease,
} from './agent-tasks.repository';
import { findAgentTask } from './find-agent-task';

describe('agent_tasks state machine (real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'agent-tasks-test', poolSize: 10 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const newTask = (orderId: string, replayCount = 0): NewAgentTask => ({
    event: orderEvent(orderId, { data: { note: 'please gift wrap' } }),
    sourceTopic: 'shop.orders',
    sourcePartition: 0,
    sourceOffset: '7',
    replayCount,
  });

  it('gives each due task to exactly one of many concurrent workers', async () => {
    const tasks = Array.from({ length: 40 }, (_, index) => newTask(`ord-many-${index}`));
    for (const task of tasks) await enqueueAgentTask(dataSource.manager, task);

    const claimsOf = async (worker: string) => {
      const claimed: ClaimedAgentTask[] = [];
      for (
        let task = await claimAgentTask(dataSource, worker, 60_000);
        task;
        task = await claimAgentTask(dataSource, worker, 60_000)
      )
        claimed.push(task);
      return claimed;
    };
    const perWorker = await Promise.all(Array.from({ length: 8 }, (_, index) => claimsOf(`worker-${index}`)));
    const claimed = perWorker.flat();

    expect(claimed).toHaveLength(40);
    expect(new Set(claimed.map((task) => task.eventId)).size).toBe(40);
    expect(
      claimed.every((task) => task.attempts === 1 && task.fencingToken === '1' && task.priorState === 'pending'),
    ).toBe(true);
    const states: Array<{ state: string; count: string }> = await dataSource.query(
      `SELECT state, COUNT(*)::text AS count FROM agent_tasks GROUP BY state`,
    );
    expect(states).toEqual([{ state: 'claimed', count: '40' }]);
    await dataSource.query(`DELETE FROM agent_tasks`);
  });

  it('claims one task per worker id in one statement, and concurrent claims never share one', async () => {
    const tasks = Array.from({ length: 30 }, (_, index) => newTask(`ord-batch-${index}`));
    for (const task of tasks) await enqueueAgentTask(dataSource.manager, task);
    const slots = (process: string) => Array.from({ length: 8 }, (_, slot) => `${process}/${slot}`);

    const rounds = await Promise.all(
      ['a', 'b', 'c', 'd'].map((process) => claimAgentTasks(dataSource, slots(process), 60_000)),
    );
    const claimed = rounds.flat();

    expect(rounds.map((round) => round.length).sort()).toEqual([6, 8, 8, 8]);
    expect(new Set(claimed.map((task) => task.eventId)).size).toBe(30);
    for (const round of rounds) expect(new Set(round.map((task) => task.claimedBy)).size).toBe(round.length);
    const owners: Array<{ event_id: string; claimed_by: string }> = await dataSource.query(
      `SELECT event_id, claimed_by FROM agent_tasks WHERE state = 'claimed'`,
    );
    expect(new Map(owners.map((row) => [row.event_id, row.claimed_by]))).toEqual(
      new Map(claimed.map((task) => [task.eventId, task.claimedBy])),
    );
    expect(await claimAgentTasks(dataSource, slots('e'), 60_000)).toEqual([]);
    await dataSource.query(`DELETE FROM agent_tasks`);
  });

  it('turns a stale worker away once its expired lease was taken over (fencing token)', async () => {
    const task = newTask('ord-stale');
    await enqueueAgentTask(dataSource.manager, task);
    const stale = (await claimAgentTask(dataSource, 'worker-a', 200))!;
    expect(stale).toMatchObject({ eventId: task.event.id, attempts: 1, fencingToken: '1' });
    expect(await claimAgentTask(dataSource, 'worker-b', 60_000)).toBeNull();

    const fresh = await waitFor(() => claimAgentTask(dataSource, 'worker-b', 60_000), {
      what: 'the expired lease claimed again',
    });
    expect(fresh).toMatchObject({
      eventId: task.event.id,
      attempts: 2,
      fencingToken: '2',
      priorState: 'claimed',
      priorClaimedBy: 'worker-a',
    });

    expect(await renewAgentTaskLease(dataSource, stale, 60_000)).toBe(false);
    expect(await completeAgentTask(dataSource, stale, { from: 'worker-a' })).toBe(false);
    expect(
      await failAgentTask(dataSource, stale, {
        verdict: 'retryable',
        retryInMs: 0,
        errorClass: 'Error',
        message: 'late',
      }),
    ).toBe(false);
    expect(await findAgentTask(dataSource, task.event.id)).toMatchObject({
      state: 'claimed',
      claimedBy: 'worker-b',
      result: null,
      lastError: null,
    });

    expect(await completeAgentTask(dataSource, fresh, { from: 'worker-b' })).toBe(true);
    expect(await findAgentTask(dataSource, task.event.id)).toMatchObject({
      state: 'done',
      attempts: 2,
      claimedBy: 'worker-b',
      result: { from: 'worker-b' },
      nextAttemptAt: null,
    });
    expect(await claimAgentTask(dataSource, 'worker-c', 60_000)).toBeNull();
  });

  it('retries a failed task after its backoff, and resets a dead task only on a replay', async () => {
    const task = newTask('ord-dead');
    await enqueueAgentTask(dataSource.manager, task);
    const first = (await claimAgentTask(dataSource, 'worker-a', 60_000))!;
    expect(
      await failAgentTask(dataSource, first, {
        verdict: 'retryable',
        retryInMs: 60_000,
        errorClass: 'ModelUnavailableError',
        message: 'model answered 503',
        dependency: 'model',
      }),
    ).toBe(true);
    expect(await claimAgentTask(dataSource, 'worker-a', 60_000)).toBeNull();
    await dataSource.query(`UPDATE agent_tasks SET next_attempt_at = now() WHERE event_id = $1`, [task.event.id]);
    const second = (await claimAgentTask(dataSource, 'worker-a', 60_000))!;
    expect(second).toMatchObject({ attempts: 2, priorState: 'failed' });
    expect(
      await failAgentTask(dataSource, second, {
        verdict: 'discarded',
        retryInMs: 0,
        errorClass: 'ModelUnavailableError',
        message: 'model answered 503',
      }),
    ).toBe(true);
    expect(await findAgentTask(dataSource, task.event.id)).toMatchObject({
      state: 'dead',
      attempts: 2,
      lastError: 'ModelUnavailableError: model answered 503',
    });

    expect(await enqueueAgentTask(dataSource.manager, task)).toBe('exists');
    expect(await findAgentTask(dataSource, task.event.id)).toMatchObject({ state: 'dead' });
    expect(await enqueueAgentTask(dataSource.manager, { ...task, replayCount: 1 })).toBe('reset');
    expect(await findAgentTask(dataSource, task.event.id)).toMatchObject({
      state: 'pending',
      attempts: 0,
      dependencyFailures: 0,
      firstFailedAt: null,
      replayCount: 1,
    });
    expect(await enqueueAgentTask(dataSource.manager, { ...task, replayCount: 2 })).toBe('exists');
  });

  it('keeps the attempts that found the model down apart; claims past the ceiling and releases only tasks waiting on it', async () => {
    await dataSource.query(`DELETE FROM agent_tasks`);
    const waiting = newTask('ord-waiting');
    const other = newTask('ord-other-error');
    await enqueueAgentTask(dataSource.manager, waiting);
    await enqueueAgentTask(dataSource.manager, other);
    const down = {
      verdict: 'retryable' as const,
      retryInMs: 60_000,
      errorClass: 'ModelUnavailableError',
      message: '503',
    };
    const first = (await claimAgentTask(dataSource, 'worker-a', 60_000))!;
    expect(first).toMatchObject({ eventId: waiting.event.id, dependencyFailures: 0, firstFailedAt: null });
    expect(await failAgentTask(dataSource, first, { ...down, dependency: 'model' })).toBe(true);
    const second = (await claimAgentTask(dataSource, 'worker-a', 60_000))!;
    expect(await failAgentTask(dataSource, second, { ...down, errorClass: 'Error', message: 'bug' })).toBe(true);
    expect(await findAgentTask(dataSource, waiting.event.id)).toMatchObject({
      state: 'failed',
      dependencyFailures: 1,
      firstFailedAt: expect.any(Date),
    });
    expect(await findAgentTask(dataSource, other.event.id)).toMatchObject({ state: 'failed', dependencyFailures: 0 });

    // Due, but its ceiling is not spent: not for a claim past the ceiling. Once it is, only the task that waits on
    // a dependency is claimed (the other one failed another way).
    await dataSource.query(`UPDATE agent_tasks SET next_attempt_at = now()`);
    expect(await claimAgentTaskPastCeiling(dataSource, 'worker-a', 60_000, 60_000)).toBeNull();
    await dataSource.query(`UPDATE agent_tasks SET first_failed_at = now() - interval '2 minutes'`);
    const last = (await claimAgentTaskPastCeiling(dataSource, 'worker-a', 60_000, 60_000))!;
    expect(last).toMatchObject({ eventId: waiting.event.id, attempts: 2, dependencyFailures: 1 });
    expect(await claimAgentTaskPastCeiling(dataSource, 'worker-b', 60_000, 60_000)).toBeNull();

    // The model answers again: what waits on it in its backoff is due at once, the other task keeps its backoff.
    expect(await failAgentTask(dataSource, last, { ...down, dependency: 'model' })).toBe(true);
    await dataSource.query(`UPDATE agent_tasks SET next_attempt_at = now() + interval '1 minute'`);
    expect(await releaseAgentTasksWaitingOn(dataSource, 'model')).toBe(1);
    expect(await claimAgentTask(dataSource, 'worker-a', 60_000)).toMatchObject({
      eventId: waiting.event.id,
      attempts: 3,
      dependencyFailures: 2,
    });
    expect(await claimAgentTask(dataSource, 'worker-a', 60_000)).toBeNull();
    await dataSource.query(`DELETE FROM agent_tasks`);
  });

  it('finds nothing for an event without a task', async () => {
    expect(await findAgentTask(dataSource, 'no-such-event')).toBeNull();
  });
});
