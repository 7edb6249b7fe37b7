import { describeFault, planFaults, ScheduleOptions } from './fault-schedule';
import { Random } from './random';

const options: ScheduleOptions = {
  seconds: 75,
  killTargets: ['relay-1', 'relay-2', 'relay-3', 'consumers-1', 'consumers-2'],
  stallTargets: ['consumers-1', 'consumers-2'],
  partitions: 6,
  stallMs: 16_000,
  outageMs: 10_000,
};

describe('chaos fault schedule', () => {
  it('is the same for the same seed and differs for another', () => {
    const plan = planFaults(new Random(4242), options).map(describeFault);
    expect(planFaults(new Random(4242), options).map(describeFault)).toEqual(plan);
    expect(planFaults(new Random(4243), options).map(describeFault)).not.toEqual(plan);
  });

  it.each([1, 7, 99, 2024, 31337, 4_000_000_000])(
    'seed %i: one 10 s outage, one stall left alone, the controller once and early, kills every few seconds, all within the run',
    (seed) => {
      const faults = planFaults(new Random(seed), options);
      const end = options.seconds * 1000;
      const outages = faults.filter((fault) => fault.kind === 'postgres-outage');
      const stalls = faults.filter((fault) => fault.kind === 'consumer-stall');
      const brokers = faults.flatMap((fault) => (fault.kind === 'broker' ? [fault] : []));
      const kills = faults.flatMap((fault) => (fault.kind === 'kill-process' ? [fault] : []));
      expect(outages).toEqual([expect.objectContaining({ durationMs: 10_000 })]);
      expect(stalls).toHaveLength(1);
      expect(brokers.length).toBeGreaterThanOrEqual(3);
      expect(brokers.filter((fault) => fault.broker.role === 'controller')).toHaveLength(1);
      expect(brokers.slice(0, 2).some((fault) => fault.broker.role === 'controller')).toBe(true);
      const [stall] = stalls;
      if (stall.kind !== 'consumer-stall') throw new Error('a stall');
      expect(
        kills.filter(
          (kill) => kill.target === stall.target && kill.at >= stall.at && kill.at <= stall.at + stall.durationMs,
        ),
      ).toEqual([]);
      expect(kills.length).toBeGreaterThanOrEqual(10);
      for (let i = 1; i < kills.length; i++) {
        expect(kills[i].at - kills[i - 1].at).toBeGreaterThanOrEqual(3000);
        expect(kills[i].at - kills[i - 1].at).toBeLessThanOrEqual(7000);
      }
      for (const fault of faults) {
        const length =
          fault.kind === 'kill-process' ? fault.pauseMs : fault.kind === 'broker' ? fault.downMs : fault.durationMs;
        expect(fault.at).toBeGreaterThan(0);
        expect(fault.kind === 'kill-process' ? fault.at : fault.at + length).toBeLessThan(end);
      }
    },
  );

  it('refuses a run too short to hold its faults', () => {
    expect(() => planFaults(new Random(1), { ...options, seconds: 20 })).toThrow('at least 30 seconds');
  });
});
