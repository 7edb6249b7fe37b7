import { laneTarget, planLanes } from './lane-plan';

describe('planLanes', () => {
  const all = Array.from({ length: 64 }, (_, lane) => lane);

  it('gives the first relay every lane', () => {
    const plan = planLanes({ lanes: 64, members: 1, slot: 0, owned: [], taken: [] });
    expect(plan.acquire).toEqual(all);
    expect(plan.release).toEqual([]);
  });

  it('makes a relay above its share give back the surplus, keeping its preferred lanes', () => {
    const plan = planLanes({ lanes: 64, members: 2, slot: 0, owned: all, taken: all });
    expect(plan.release).toEqual(all.slice(32));
    expect(plan.acquire).toEqual([]);
  });

  it('takes only free lanes, up to the share, starting from the slot’s part of the ring', () => {
    const taken = all.slice(0, 32);
    const plan = planLanes({ lanes: 64, members: 2, slot: 1, owned: [], taken });
    expect(plan.acquire).toEqual(all.slice(32));
  });

  it('covers every lane when relays converge, for any number of relays', () => {
    for (let members = 1; members <= 10; members++) {
      const owned: number[][] = Array.from({ length: members }, () => []);
      for (let round = 0; round < 5; round++) {
        for (let slot = 0; slot < members; slot++) {
          const plan = planLanes({ lanes: 64, members, slot, owned: owned[slot], taken: owned.flat() });
          owned[slot] = owned[slot].filter((lane) => !plan.release.includes(lane)).concat(plan.acquire);
        }
      }
      expect(owned.flat().sort((a, b) => a - b)).toEqual(all);
      for (const lanes of owned) expect(lanes.length).toBeLessThanOrEqual(laneTarget(64, members));
    }
  });
});
