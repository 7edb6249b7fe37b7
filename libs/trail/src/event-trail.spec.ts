import { mergeSteps } from './event-trail';
import { TrailEntry } from './trail';

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
const entry = (step: string, ms: number, extra: Partial<TrailEntry> = {}): TrailEntry => ({
  at: at(ms),
  step,
  level: 'info',
  summary: step,
  detail: {},
  ...extra,
});

describe('mergeSteps', () => {
  it('orders by time, then by the sources’ order, then by each source’s own order', () => {
    const steps = mergeSteps([
      { source: 'received', entries: [entry('received', 0)] },
      { source: 'outbox', entries: [entry('queued', 0), entry('published', 5)] },
      { source: 'dead-letters', entries: [entry('dead-lettered', 9, { group: 'g' }), entry('replayed', 20)] },
      { source: 'groups', entries: [entry('applied', 30, { group: 'g' }), entry('applied', 9, { group: 'h' })] },
    ]);
    expect(steps.map((step) => `${step.source}:${step.step}`)).toEqual([
      'received:received',
      'outbox:queued',
      'outbox:published',
      'dead-letters:dead-lettered',
      'groups:applied',
      'dead-letters:replayed',
      'groups:applied',
    ]);
    expect(steps[0].at).toBe('2030-01-01T00:00:00.000Z');
  });

  it('places a step that precedes every group before the first group step, keeping its recorded time', () => {
    const steps = mergeSteps([
      {
        source: 'outbox',
        entries: [entry('queued', 0, { beforeGroups: true }), entry('published', 12, { beforeGroups: true })],
      },
      { source: 'groups', entries: [entry('applied', 10, { group: 'ledger' })] },
    ]);
    expect(steps.map((step) => step.step)).toEqual(['queued', 'published', 'applied']);
    expect(steps[1]).toMatchObject({ at: at(10).toISOString(), detail: { recordedAt: at(12).toISOString() } });
    expect(steps[1]).not.toHaveProperty('beforeGroups');
  });
});
