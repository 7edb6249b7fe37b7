import { waitFor } from '@app/testing';
import { ClaimRoom, TaskExecutor } from './task-executor';

interface Job {
  id: string;
}

/** A queue in memory and runs that finish when the test says so. */
function harness(slots: number, { failClaims = 0 } = {}) {
  const queue: Job[] = [];
  const rooms: Array<Omit<ClaimRoom<Job>, 'inHand'> & { inHand: string[] }> = [];
  const running = new Map<string, { slot: number; finish: () => void; signal: AbortSignal }>();
  const handedBack: string[] = [];
  const failures: Array<{ error: string; task?: string }> = [];
  let claimsToFail = failClaims;
  const executor = new TaskExecutor<Job>({
    slots,
    // Far longer than any test: a task starts only because a slot freed or `wake` was called.
    pollIntervalMs: 60_000,
    backoffMs: 10,
    claim: async (room) => {
      rooms.push({ ...room, inHand: room.inHand.map((job) => job.id) });
      if (claimsToFail-- > 0) throw new Error('database away');
      return queue.splice(0, room.limit);
    },
    run: (job, signal, slot) =>
      new Promise<void>((resolve, reject) => {
        if (job.id.startsWith('boom')) return reject(new Error(`${job.id} blew up`));
        running.set(job.id, { slot, signal, finish: () => (running.delete(job.id), resolve()) });
        signal.addEventListener('abort', () => {
          handedBack.push(job.id);
          running.delete(job.id);
          resolve();
        });
      }),
    failed: (error, task) => failures.push({ error: (error as Error).message, task: task?.id }),
  });
  const add = (...ids: string[]) => {
    queue.push(...ids.map((id) => ({ id })));
    executor.wake();
  };
  return { executor, queue, rooms, running, handedBack, failures, add };
}

describe('the task executor', () => {
  it('runs at most its slots at once, each task in the lowest free slot, and fills a freed slot at once', async () => {
    const { executor, queue, rooms, running, add } = harness(3);
    add('a', 'b', 'c', 'd', 'e');
    executor.start();
    await waitFor(() => running.size === 3, { what: 'three tasks running' });
    expect([...running.entries()].map(([id, { slot }]) => [id, slot])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    expect(rooms[0]).toEqual({ limit: 3, slots: [0, 1, 2], inHand: [] });
    expect(queue.map((job) => job.id)).toEqual(['d', 'e']);

    running.get('b')!.finish();
    await waitFor(() => running.has('d'), { what: 'd in the freed slot' });
    expect(running.get('d')!.slot).toBe(1);
    expect(rooms.at(-1)).toEqual({ limit: 1, slots: [1], inHand: ['a', 'c'] });
    expect(running.has('e')).toBe(false);
    await executor.stop();
  });

  it('claims as soon as it is woken while idle, not at the next poll', async () => {
    const { executor, running, rooms, add } = harness(2);
    executor.start();
    await waitFor(() => rooms.length === 1, { what: 'a first claim that found nothing' });
    add('late');
    await waitFor(() => running.has('late'), { what: 'the task committed after the executor went idle' });
    await executor.stop();
  });

  it('stopping aborts the tasks in hand and waits until each was handed back, then claims no more', async () => {
    const { executor, running, handedBack, rooms, add } = harness(2);
    add('a', 'b', 'c');
    executor.start();
    await waitFor(() => running.size === 2, { what: 'two tasks running' });
    const signals = [...running.values()].map((entry) => entry.signal);
    await executor.stop();
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(handedBack.sort()).toEqual(['a', 'b']);
    const claims = rooms.length;
    add('d');
    expect(rooms.length).toBe(claims);
    expect(executor.inHand()).toEqual([]);
  });

  it('abandoning stops the tasks in hand and keeps claiming', async () => {
    const { executor, running, handedBack, add } = harness(1);
    add('a');
    executor.start();
    await waitFor(() => running.has('a'), { what: 'a running' });
    executor.abandon();
    add('b');
    await waitFor(() => running.has('b'), { what: 'b claimed after a was abandoned' });
    expect(handedBack).toEqual(['a']);
    await executor.stop();
  });

  it('reports a failed claim and claims again after the backoff; a run that throws is reported and frees its slot', async () => {
    const { executor, running, failures, add } = harness(1, { failClaims: 2 });
    add('boom-1', 'ok');
    executor.start();
    await waitFor(() => running.has('ok'), { what: 'the task after the failed claims and the failed run' });
    expect(failures).toEqual([
      { error: 'database away', task: undefined },
      { error: 'database away', task: undefined },
      { error: 'boom-1 blew up', task: 'boom-1' },
    ]);
    await executor.stop();
  });

  it('with claimConcurrency 2, a slot that frees during a slow claim round is claimed by a second round at once', async () => {
    const rounds: number[][] = [];
    const running = new Map<string, () => void>();
    let releaseSlowRound!: () => void;
    const executor = new TaskExecutor<Job>({
      slots: 2,
      pollIntervalMs: 60_000,
      claimConcurrency: 2,
      claim: async ({ slots }) => {
        const round = rounds.push([...slots]);
        if (round === 2) await new Promise<void>((resolve) => (releaseSlowRound = resolve));
        return slots.map((slot) => ({ id: `round-${round}-slot-${slot}` }));
      },
      run: (job, signal) =>
        new Promise<void>((resolve) => {
          running.set(job.id, () => (running.delete(job.id), resolve()));
          signal.addEventListener('abort', () => resolve());
        }),
      failed: () => undefined,
    });
    executor.start();
    await waitFor(() => running.size === 2, { what: 'the first round filling both slots' });
    running.get('round-1-slot-0')!();
    await waitFor(() => rounds.length === 2, { what: 'a slow round for slot 0' });
    running.get('round-1-slot-1')!();
    await waitFor(() => running.has('round-3-slot-1'), { what: 'slot 1 claimed while the slow round is in flight' });
    expect(rounds).toEqual([[0, 1], [0], [1]]);
    releaseSlowRound();
    await waitFor(() => running.has('round-2-slot-0'), { what: 'the slow round ending' });
    await executor.stop();
  });
});
