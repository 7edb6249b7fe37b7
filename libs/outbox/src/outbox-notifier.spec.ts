import { notificationConcerns, OutboxNotifier } from './outbox-notify';

/** A notify function whose calls stay in flight until the test settles them. */
function fakeNotify() {
  const calls: Array<{ lanes: string; settle: (error?: Error) => void }> = [];
  const notify = (lanes: string) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ lanes, settle: (error) => (error ? reject(error) : resolve()) });
    });
  return { calls, notify };
}

const flushMicrotasks = () => new Promise((resolve) => setImmediate(resolve));

describe('OutboxNotifier', () => {
  it('sends one NOTIFY for a commit', async () => {
    const { calls, notify } = fakeNotify();
    new OutboxNotifier(notify).committed();
    expect(calls).toHaveLength(1);
  });

  it('folds any number of commits during a NOTIFY in flight into exactly one more after it', async () => {
    const { calls, notify } = fakeNotify();
    const notifier = new OutboxNotifier(notify);
    notifier.committed();
    for (let i = 0; i < 100; i++) notifier.committed();
    expect(calls).toHaveLength(1);

    calls[0].settle();
    await flushMicrotasks();
    expect(calls).toHaveLength(2);

    calls[1].settle();
    await flushMicrotasks();
    expect(calls).toHaveLength(2);

    notifier.committed();
    expect(calls).toHaveLength(3);
  });

  it('reports a failed NOTIFY and still sends the next one', async () => {
    const { calls, notify } = fakeNotify();
    const errors: unknown[] = [];
    const notifier = new OutboxNotifier(notify, (error) => errors.push(error));
    notifier.committed();
    calls[0].settle(new Error('connection refused'));
    await flushMicrotasks();
    expect(errors).toEqual([new Error('connection refused')]);

    notifier.committed();
    expect(calls).toHaveLength(2);
  });

  it('names the lanes of the commits it folds into one NOTIFY, and every lane once a commit did not say', async () => {
    const { calls, notify } = fakeNotify();
    const notifier = new OutboxNotifier(notify);
    notifier.committed([3]);
    notifier.committed([7, 3]);
    notifier.committed(new Set([12]));
    expect(calls.map(({ lanes }) => lanes)).toEqual(['3']);
    calls[0].settle();
    await flushMicrotasks();
    expect(calls.map(({ lanes }) => lanes)).toEqual(['3', '7,3,12']);

    notifier.committed([5]);
    notifier.committed();
    calls[1].settle();
    await flushMicrotasks();
    expect(calls.map(({ lanes }) => lanes)).toEqual(['3', '7,3,12', '']);
  });

  it('sends nothing after a commit that wrote no outbox row', () => {
    const { calls, notify } = fakeNotify();
    new OutboxNotifier(notify).committed([]);
    expect(calls).toEqual([]);
  });

  it('wakes a relay loop for a NOTIFY naming one of its lanes, or every lane (an empty or unreadable payload)', () => {
    const owned = [2, 9, 40];
    expect(notificationConcerns('4,9', owned)).toBe(true);
    expect(notificationConcerns('4,10', owned)).toBe(false);
    expect(notificationConcerns('4,10', [])).toBe(false);
    expect(notificationConcerns('', owned)).toBe(true);
    expect(notificationConcerns(undefined, owned)).toBe(true);
    expect(notificationConcerns('4,x', owned)).toBe(true);
  });
});
