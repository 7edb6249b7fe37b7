import { runCli } from '../../apps/cli/src/main';
import { OpsBed } from './ops-bed';

/** The step names of a trail, as `step/group` when a group is concerned. */
const steps = (trail: Array<{ step: string; group?: string }>) =>
  trail.map((entry) => (entry.group ? `${entry.step}/${entry.group}` : entry.step));

/** `expected` appears in `actual` in this order (other steps may come between). */
function inOrder(actual: string[], expected: string[]): boolean {
  let at = 0;
  for (const step of actual) if (step === expected[at]) at++;
  return at === expected.length;
}

describe('an event dead-lettered, replayed and applied: its whole trail', () => {
  let bed: OpsBed;

  beforeAll(async () => {
    bed = await OpsBed.start('trail');
    bed.emailProvider.configure({ failureRate: 1, failStatus: 422 });
    await Promise.all([bed.startRelay(), bed.startConsumers()]);
  }, 120_000);

  afterAll(async () => {
    await bed?.stop();
  });

  it('shows every step in order, by event id, sender event id and aggregate id, in the API and the CLI', async () => {
    const id = await bed.send('ord_trail_1');
    const deadLetter = await bed.deadLetterOf(id, 'notifier');
    bed.emailProvider.configure({ failureRate: 0 });
    const replay = await bed.admin(`dead-letters/${deadLetter.id}/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hookrail-operator': 'ada' },
      body: '{}',
    });
    expect(replay.replayed).toEqual([deadLetter.id]);
    await bed.deadLetterOf(id, 'notifier', 'resolved');

    const byId = await bed.admin(`events/${id}`);
    expect(byId.events).toHaveLength(1);
    const [event] = byId.events;
    expect(event).toMatchObject({ id, source: 'shop', type: 'shop.order.placed.v1', aggregateId: 'ord_trail_1' });
    const names = steps(event.trail);
    expect(names).toEqual(expect.arrayContaining(['applied/ledger']));
    expect(
      inOrder(names, [
        'received',
        'queued',
        'published',
        'dead-lettered/notifier',
        'replayed/notifier',
        'applied/notifier',
        'resolved/notifier',
      ]),
    ).toBe(true);
    const times = event.trail.map((entry: { at: string }) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const byName = (name: string) => event.trail.find((entry: { step: string }) => entry.step === name);
    expect(byName('received').detail).toMatchObject({
      scheme: 'standard-webhooks',
      senderEventId: bed.senderIds.get(id),
    });
    expect(byName('received').detail.headers).toHaveProperty('webhook-id', bed.senderIds.get(id));
    expect(byName('received').detail.headers).not.toHaveProperty('webhook-signature');
    expect(byName('published').detail).toMatchObject({ topic: bed.topic, partition: 0 });
    expect(byName('dead-lettered').detail).toMatchObject({
      deadLetterId: deadLetter.id,
      topic: bed.topic,
      partition: 0,
      errorClass: expect.stringMatching(/Rejected/),
    });
    expect(byName('replayed').summary).toContain('by admin:ada');

    const [bySender, byAggregate] = await Promise.all([
      bed.admin(`events/${bed.senderIds.get(id)}`),
      bed.admin('events/ord_trail_1'),
    ]);
    expect(bySender.events.map((found: { id: string }) => found.id)).toEqual([id]);
    expect(bySender.events[0].matchedBy).toEqual(['senderEventId']);
    expect(byAggregate.events.map((found: { id: string }) => found.id)).toEqual([id]);

    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['trace', bed.senderIds.get(id)!],
      (text) => out.push(text),
      (text) => err.push(text),
      {
        ...process.env,
        DATABASE_URL: bed.ingress.database.url,
      },
    );
    expect(code).toBe(0);
    const lines = out.join('\n').split('\n');
    expect(lines[0]).toContain(`event ${id}`);
    const cliSteps = lines.slice(1).map((line) => line.slice(2).split(/\s+/)[1]);
    expect(
      inOrder(cliSteps, ['received', 'queued', 'published', 'dead-lettered', 'replayed', 'applied', 'resolved']),
    ).toBe(true);
    expect(out.join('\n')).toContain('by admin:ada');

    // The dead letter lists its group's owner, as the notifier's service declares it.
    const listed: string[] = [];
    await runCli(
      ['dlq', 'list', '--group', 'notifier'],
      (text) => listed.push(text),
      () => undefined,
      {
        ...process.env,
        DATABASE_URL: bed.ingress.database.url,
      },
    );
    expect(listed.join('\n')).toMatch(
      new RegExp(
        `^${deadLetter.id}\\s+notifier\\s+customer-messaging <messaging@example.com>\\s+shop.order.placed.v1`,
        'm',
      ),
    );
  });

  it('answers 404 for a ref that names no event, and 400 for one too long', async () => {
    const missing = await fetch(`${bed.ingress.adminUrl}/admin/events/no-such-event`, {
      headers: { authorization: 'Bearer admin-token-of-the-operations-tests' },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found' });
    const tooLong = await fetch(`${bed.ingress.adminUrl}/admin/events/${'x'.repeat(301)}`, {
      headers: { authorization: 'Bearer admin-token-of-the-operations-tests' },
    });
    expect(tooLong.status).toBe(400);
  });
});
