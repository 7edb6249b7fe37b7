import { LoopShedder } from './loop-shedder';

describe('LoopShedder', () => {
  it('sheds more while the loop is late and less once it keeps up, never everything', () => {
    const shedder = new LoopShedder(100, () => 0.5);
    try {
      expect(shedder.shouldShed()).toBe(false);
      for (let window = 0; window < 6; window++) shedder.adjust(400, 50);
      expect(shedder.shedFraction).toBeCloseTo(0.6);
      expect(shedder.shouldShed()).toBe(true);
      for (let window = 0; window < 20; window++) shedder.adjust(400, 50);
      expect(shedder.shedFraction).toBe(0.95);
      for (let window = 0; window < 30; window++) shedder.adjust(10, 50);
      expect(shedder.shedFraction).toBeCloseTo(0.35);
      expect(shedder.shouldShed()).toBe(false);
      for (let window = 0; window < 100; window++) shedder.adjust(10, 50);
      expect(shedder.shedFraction).toBe(0);
    } finally {
      shedder.close();
    }
  });

  it('is not raised by a late loop while few deliveries arrive (the app starting, a collection, a busy neighbour)', () => {
    const shedder = new LoopShedder(100, () => 0.5);
    try {
      for (let window = 0; window < 10; window++) shedder.adjust(2_000, window % 2 === 0 ? 0 : 9);
      expect(shedder.shedFraction).toBe(0);
      expect(shedder.shouldShed()).toBe(false);
      shedder.adjust(400, 10);
      expect(shedder.shedFraction).toBeCloseTo(0.1);
    } finally {
      shedder.close();
    }
  });
});
