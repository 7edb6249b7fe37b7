import { OutboxNotifier } from './outbox-notify';

/** A notify function whose calls stay in flight until the test settles them. */
function fakeNotify() {
  const calls: Array<{ settle: (error?: Error) => void }> = [];
  const notify = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ settle: (error) => (error ? reject(error) : resolve()) });
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
});
