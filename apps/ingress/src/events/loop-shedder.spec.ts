import { LoopShedder } from './loop-shedder';

describe('LoopShedder', () => {
  it('sheds more while the loop is late and less once it keeps up, never everything', () => {
    const shedder = new LoopShedder(100, () => 0.5);
    try {
      expect(shedder.shouldShed()).toBe(false);
      for (let window = 0; window < 6; window++) shedder.adjust(400);
      expect(shedder.shedFraction).toBeCloseTo(0.6);
      expect(shedder.shouldShed()).toBe(true);
      for (let window = 0; window < 20; window++) shedder.adjust(400);
      expect(shedder.shedFraction).toBe(0.95);
      for (let window = 0; window < 30; window++) shedder.adjust(10);
      expect(shedder.shedFraction).toBeCloseTo(0.35);
      expect(shedder.shouldShed()).toBe(false);
      for (let window = 0; window < 100; window++) shedder.adjust(10);
      expect(shedder.shedFraction).toBe(0);
    } finally {
      shedder.close();
    }
  });
});
