import { CompiledSaga, defineSaga, SagaCommand } from './saga-definition';
import { decide, SagaDecision, SagaInput, SagaPosition } from './saga-transitions';

const command = (name: string, compensation = false): SagaCommand<unknown> => ({
  topic: `${name}.commands`,
  type: `${name}.${compensation ? 'undo' : 'do'}.v1`,
  data: () => ({}),
  succeeded: `${name}.${compensation ? 'undone' : 'done'}.v1`,
  failed: [`${name}.${compensation ? 'undo' : 'do'}-failed.v1`],
});

/** reserve → charge → ship, where ship has no compensation (a pivot). */
const saga: CompiledSaga = defineSaga({
  type: 'demo',
  source: '/sagas/demo',
  replyTopic: 'demo.replies',
  steps: [
    {
      name: 'reserve',
      action: command('reserve'),
      compensation: command('reserve', true),
      timeoutMs: 1000,
      retries: 2,
    },
    { name: 'charge', action: command('charge'), compensation: command('charge', true), timeoutMs: 1000, retries: 2 },
    { name: 'ship', action: command('ship'), timeoutMs: 1000, retries: 0 },
  ],
  compensationPolicy: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000, ceilingMs: 60_000 },
  cancelledBy: [{ type: 'shop.cancelled.v1', correlationId: (data: { id: string }) => data.id }],
});

const reply = (type: string, reason?: string): SagaInput => ({ kind: 'reply', route: saga.route(type)!, reason });
const at = (state: SagaPosition['state'], step: number, attempts = 1, more: Partial<SagaPosition> = {}) => ({
  state,
  step,
  attempts,
  refusals: 0,
  failingSince: null,
  backingOff: false,
  cancellation: null,
  ...more,
});
const NOW = new Date('2026-12-01T12:00:00Z');
/** The clock at `NOW` plus `ms`; the backoff's dice always at their middle. */
const clock = (ms = 0) => ({ now: new Date(NOW.getTime() + ms), random: () => 0.5 });
const brief = (decision: SagaDecision) =>
  decision.kind === 'ignore'
    ? 'ignore'
    : `${decision.state}@${decision.step}${decision.send ? ` send ${decision.send.phase}@${decision.send.step}` : ''}${
        decision.outcome ? ` ${decision.outcome}` : ''
      }`;

describe('saga transitions', () => {
  it('runs the steps in order and completes after the last one', () => {
    expect(brief(decide(saga, at('running', 0), reply('reserve.done.v1')))).toBe('running@1 send action@1');
    expect(brief(decide(saga, at('running', 1), reply('charge.done.v1')))).toBe('running@2 send action@2');
    expect(brief(decide(saga, at('running', 2), reply('ship.done.v1')))).toBe('completed@2 completed');
  });

  it('compensates the steps before a failed one, in reverse, and ends compensated', () => {
    const failed = decide(saga, at('running', 2), reply('ship.do-failed.v1', 'address unknown'));
    expect(failed).toMatchObject({ state: 'compensating', failure: 'address unknown', event: 'failed' });
    expect(brief(failed)).toBe('compensating@1 send compensation@1');
    expect(brief(decide(saga, at('compensating', 1), reply('charge.undone.v1')))).toBe(
      'compensating@0 send compensation@0',
    );
    expect(brief(decide(saga, at('compensating', 0), reply('reserve.undone.v1')))).toBe('compensated@0 compensated');
  });

  it('has nothing to compensate when the first step fails', () => {
    expect(brief(decide(saga, at('running', 0), reply('reserve.do-failed.v1', 'out of stock')))).toBe(
      'compensated@0 compensated',
    );
  });

  it('ignores replies the saga does not wait for: duplicates, late ones, other phases', () => {
    expect(decide(saga, at('running', 1), reply('reserve.done.v1'))).toMatchObject({ kind: 'ignore' });
    expect(decide(saga, at('completed', 2), reply('ship.done.v1'))).toMatchObject({ kind: 'ignore' });
    expect(decide(saga, at('compensating', 1), reply('charge.done.v1'))).toMatchObject({ kind: 'ignore' });
    expect(decide(saga, at('running', 1), reply('charge.undone.v1'))).toMatchObject({ kind: 'ignore' });
    expect(decide(saga, at('compensated', 0), reply('reserve.undone.v1'))).toMatchObject({ kind: 'ignore' });
  });

  it('sends an unanswered command again up to its retries, then compensates the step itself too', () => {
    expect(decide(saga, at('running', 1, 1), { kind: 'deadline' })).toMatchObject({
      state: 'running',
      attempts: 2,
      event: 'timed-out',
      send: { step: 1, phase: 'action' },
    });
    const givenUp = decide(saga, at('running', 1, 3), { kind: 'deadline' });
    expect(brief(givenUp)).toBe('compensating@1 send compensation@1');
    expect(givenUp).toMatchObject({ failure: expect.stringContaining('charge (action): no reply within 1000 ms') });
    // A pivot without compensation that times out for good: the steps before it are undone.
    expect(brief(decide(saga, at('running', 2, 1), { kind: 'deadline' }))).toBe('compensating@1 send compensation@1');
  });

  it('sends a refused compensation again after a backoff that doubles, and fails once its attempts are spent', () => {
    const first = decide(saga, at('compensating', 1), reply('charge.undo-failed.v1', 'refund refused'), clock());
    expect(first).toMatchObject({
      state: 'compensating',
      step: 1,
      attempts: 1,
      event: 'failed',
      error: 'refund refused (refusal 1 of 3; sent again in 50 ms)',
      retry: { refusals: 1, failingSince: NOW, backoffMs: 50 },
    });
    expect(first).not.toHaveProperty('send');
    // The backoff over, the deadline sends it again; a second refusal waits twice as long.
    const backingOff = at('compensating', 1, 1, { refusals: 1, failingSince: NOW, backingOff: true });
    expect(decide(saga, backingOff, { kind: 'deadline' }, clock(50))).toMatchObject({
      state: 'compensating',
      attempts: 2,
      event: 'retried',
      send: { step: 1, phase: 'compensation' },
      detail: 'sent again after 1 refusal',
      retry: { refusals: 1, failingSince: NOW },
    });
    // Another refusal of the same send while it waits changes nothing.
    expect(decide(saga, backingOff, reply('charge.undo-failed.v1'), clock(10))).toMatchObject({ kind: 'ignore' });
    const resent = at('compensating', 1, 2, { refusals: 1, failingSince: NOW });
    expect(decide(saga, resent, reply('charge.undo-failed.v1', 'refund refused'), clock(60))).toMatchObject({
      retry: { refusals: 2, failingSince: NOW, backoffMs: 100 },
    });
    // A success after refusals moves on, and the next compensation starts with nothing spent.
    const undone = decide(saga, resent, reply('charge.undone.v1'), clock(70));
    expect(brief(undone)).toBe('compensating@0 send compensation@0');
    expect(undone).not.toHaveProperty('retry');
    // The third refusal spends the attempts: failed, for an operator.
    const last = at('compensating', 1, 3, { refusals: 2, failingSince: NOW });
    expect(decide(saga, last, reply('charge.undo-failed.v1', 'refund refused'), clock(200))).toMatchObject({
      state: 'failed',
      attempts: 0,
      error: 'refund refused (refused 3 times; an operator must look)',
    });
  });

  it('sends an unanswered compensation again at each timeout until the ceiling, then fails', () => {
    const first = decide(saga, at('compensating', 0, 1), { kind: 'deadline' }, clock());
    expect(first).toMatchObject({
      state: 'compensating',
      attempts: 2,
      event: 'timed-out',
      send: { step: 0, phase: 'compensation' },
      retry: { refusals: 0, failingSince: NOW },
    });
    const silent = at('compensating', 0, 30, { failingSince: NOW });
    expect(decide(saga, silent, { kind: 'deadline' }, clock(59_999))).toMatchObject({ attempts: 31 });
    expect(decide(saga, silent, { kind: 'deadline' }, clock(60_000))).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('unanswered since 2026-12-01T12:00:00.000Z'),
    });
    // A refusal past the ceiling fails too, whatever the attempts left.
    const late = at('compensating', 0, 2, { refusals: 1, failingSince: NOW });
    expect(decide(saga, late, reply('reserve.undo-failed.v1'), clock(61_000))).toMatchObject({ state: 'failed' });
  });

  it('sends a failed compensation again when an operator retries, with its policy afresh', () => {
    expect(decide(saga, at('failed', 1, 0, { refusals: 3 }), { kind: 'deadline' })).toMatchObject({
      state: 'compensating',
      attempts: 1,
      event: 'retried',
      send: { step: 1, phase: 'compensation' },
      detail: 'retried by an operator',
    });
    // A late success of the failed compensation moves on; a second failure changes nothing.
    expect(brief(decide(saga, at('failed', 1, 0), reply('charge.undone.v1')))).toBe(
      'compensating@0 send compensation@0',
    );
    expect(decide(saga, at('failed', 1, 0), reply('charge.undo-failed.v1'))).toMatchObject({ kind: 'ignore' });
  });

  it('goes on by itself, and says so, when a failed compensation succeeds later (no operator retry)', () => {
    const recovered = { event: 'succeeded', recovered: true, detail: expect.stringContaining('goes on by itself') };
    expect(decide(saga, at('failed', 1, 0, { refusals: 3 }), reply('charge.undone.v1'))).toMatchObject({
      ...recovered,
      state: 'compensating',
      send: { step: 0, phase: 'compensation' },
    });
    expect(decide(saga, at('failed', 0, 0), reply('reserve.undone.v1'))).toMatchObject({
      ...recovered,
      state: 'compensated',
      outcome: 'compensated',
    });
    // A compensation that succeeds on its policy is no recovery.
    expect(decide(saga, at('compensating', 0, 2, { refusals: 1 }), reply('reserve.undone.v1'))).not.toHaveProperty(
      'recovered',
    );
  });

  it('cancels a running saga: the current step is compensated too, and it ends cancelled', () => {
    const cancel: SagaInput = { kind: 'cancel', reason: 'the shop cancelled the order' };
    const cancelled = decide(saga, at('running', 1), cancel);
    expect(cancelled).toMatchObject({
      state: 'compensating',
      event: 'cancelled',
      concerns: { step: 1, phase: 'action' },
      cancellation: 'the shop cancelled the order',
      failure: 'the shop cancelled the order',
    });
    expect(brief(cancelled)).toBe('compensating@1 send compensation@1');
    // The last compensation of a cancelled saga ends it cancelled, with that outcome.
    const undoing = at('compensating', 0, 1, { cancellation: 'the shop cancelled the order' });
    expect(brief(decide(saga, undoing, reply('reserve.undone.v1')))).toBe('cancelled@0 cancelled');
    // At the pivot without compensation, the steps before it are undone.
    expect(brief(decide(saga, at('running', 2), cancel))).toBe('compensating@1 send compensation@1');
    // Only a running saga is cancelled.
    for (const state of ['compensating', 'completed', 'compensated', 'cancelled', 'failed'] as const)
      expect(decide(saga, at(state, 1), cancel)).toMatchObject({ kind: 'ignore' });
  });

  it("carries out an operator's cancel at the deadline or at the reply that comes first", () => {
    const requested = at('running', 1, 1, { cancellation: 'cancelled by cli:ada' });
    expect(brief(decide(saga, requested, { kind: 'deadline' }))).toBe('compensating@1 send compensation@1');
    // The step succeeded meanwhile: it is undone too.
    expect(decide(saga, requested, reply('charge.done.v1'))).toMatchObject({
      state: 'compensating',
      event: 'cancelled',
      send: { step: 1, phase: 'compensation' },
    });
    // The step failed meanwhile: the steps before it are undone, and the saga still ends cancelled.
    expect(brief(decide(saga, requested, reply('charge.do-failed.v1')))).toBe('compensating@0 send compensation@0');
    const first = at('running', 0, 1, { cancellation: 'cancelled by cli:ada' });
    expect(brief(decide(saga, first, reply('reserve.do-failed.v1')))).toBe('cancelled@0 cancelled');
  });

  it('refuses a definition whose replies are ambiguous or whose steps are malformed', () => {
    const base = { type: 'demo', source: '/s', replyTopic: 'r' };
    expect(() => defineSaga({ ...base, steps: [] })).toThrow('needs at least one step');
    const step = { name: 'a', action: command('a'), timeoutMs: 1, retries: 0 };
    expect(() => defineSaga({ ...base, steps: [step, { ...step }] })).toThrow('two steps are named a');
    expect(() => defineSaga({ ...base, steps: [step, { ...step, name: 'b' }] })).toThrow(
      'reply type a.done.v1 answers two commands',
    );
    expect(() => defineSaga({ ...base, steps: [{ ...step, timeoutMs: 0 }] })).toThrow('positive timeoutMs');
    expect(() => defineSaga({ ...base, steps: [{ ...step, name: 'Charge Card' }] })).toThrow('kebab-case');
    const cancelledBy = [{ type: 'a.done.v1', correlationId: () => 'x' }];
    expect(() => defineSaga({ ...base, steps: [step], cancelledBy })).toThrow('a.done.v1 is a reply type');
    const compensationPolicy = { maxAttempts: 0, baseDelayMs: 0, maxDelayMs: 0, ceilingMs: 0 };
    expect(() => defineSaga({ ...base, steps: [step], compensationPolicy })).toThrow('maxAttempts must be ≥ 1');
  });
});
