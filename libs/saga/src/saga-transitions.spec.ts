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
});

const reply = (type: string, reason?: string): SagaInput => ({ kind: 'reply', route: saga.route(type)!, reason });
const at = (state: SagaPosition['state'], step: number, attempts = 1): SagaPosition => ({ state, step, attempts });
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

  it('fails when a compensation fails or times out for good, and an operator retry sends it again', () => {
    expect(decide(saga, at('compensating', 1), reply('charge.undo-failed.v1', 'refund refused'))).toMatchObject({
      state: 'failed',
      attempts: 0,
      error: 'refund refused',
    });
    expect(decide(saga, at('compensating', 0, 3), { kind: 'deadline' })).toMatchObject({ state: 'failed' });
    expect(decide(saga, at('failed', 1, 0), { kind: 'deadline' })).toMatchObject({
      state: 'compensating',
      attempts: 1,
      event: 'retried',
      send: { step: 1, phase: 'compensation' },
    });
    // A late success of the failed compensation moves on; a second failure changes nothing.
    expect(brief(decide(saga, at('failed', 1, 0), reply('charge.undone.v1')))).toBe(
      'compensating@0 send compensation@0',
    );
    expect(decide(saga, at('failed', 1, 0), reply('charge.undo-failed.v1'))).toMatchObject({ kind: 'ignore' });
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
  });
});
