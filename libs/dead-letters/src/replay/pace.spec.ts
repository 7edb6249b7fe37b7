import { chunkSize, paceDelay } from './pace';

describe('replay pacing', () => {
  it('spreads sends so that the rate is never exceeded', () => {
    expect(paceDelay(0, 50, 1_000, 1_000)).toBe(0);
    expect(paceDelay(10, 50, 1_000, 1_000)).toBe(200);
    expect(paceDelay(10, 50, 1_000, 1_150)).toBe(50);
    expect(paceDelay(10, 50, 1_000, 2_000)).toBe(0);
  });

  it('sends a tenth of a second per chunk, at least one message', () => {
    expect(chunkSize(100)).toBe(10);
    expect(chunkSize(5)).toBe(1);
    expect(chunkSize(1000)).toBe(100);
  });
});
