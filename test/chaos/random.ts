/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on every machine, so a
 * chaos run's schedule and traffic can be replayed from the seed it printed.
 */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** An independent generator derived from this one (so that one stream's use does not shift another's). */
  fork(): Random {
    return new Random(Math.floor(this.next() * 4294967296));
  }
}

/** A fresh 32-bit seed for a run that was not given one. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296);
}
