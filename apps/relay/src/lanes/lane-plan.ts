/** How many lanes each of `members` relays should own: the ceiling, so that together they cover every lane. */
export function laneTarget(lanes: number, members: number): number {
  return Math.ceil(lanes / Math.max(1, members));
}

export interface LanePlanInput {
  lanes: number;
  /** Live relays, this one included. */
  members: number;
  /** This relay's member slot; it decides where in the lane ring the relay prefers to take lanes. */
  slot: number;
  /** Lanes this relay owns. */
  owned: number[];
  /** Lanes any relay owns, this one included. */
  taken: number[];
}

export interface LanePlan {
  acquire: number[];
  release: number[];
}

/**
 * One rebalancing step: a relay above its share gives back its surplus; a relay below it asks for free lanes.
 * Relays prefer different parts of the ring (by slot), so that they rarely race for the same lane; a lost race only
 * means the lane is tried again on the next step.
 */
export function planLanes({ lanes, members, slot, owned, taken }: LanePlanInput): LanePlan {
  const target = laneTarget(lanes, members);
  const start = (slot * target) % lanes;
  const preference = (lane: number) => (lane - start + lanes) % lanes;
  const byPreference = (a: number, b: number) => preference(a) - preference(b);
  if (owned.length > target) {
    return { acquire: [], release: [...owned].sort(byPreference).slice(target) };
  }
  const takenSet = new Set(taken);
  const free = Array.from({ length: lanes }, (_, lane) => lane).filter((lane) => !takenSet.has(lane));
  return { acquire: free.sort(byPreference).slice(0, target - owned.length), release: [] };
}
