import { RetryPolicy } from '@app/consumer-runtime';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `0`, `250ms`, `5s`, `30m`, `2h`, `5d` → milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  const [, amount, unit] = match;
  if (!unit && Number(amount) !== 0) return undefined;
  return Math.round(Number(amount) * UNIT_MS[(unit ?? 'ms') as keyof typeof UNIT_MS]);
}

/**
 * When each attempt of a delivery happens: entry i is the wait before attempt i + 1, counted from the failure of the
 * attempt before (entry 0 from the event's arrival). Its length is the number of attempts.
 * The default is Svix's: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. It is read from the configuration
 * into the one retry policy of every kind of task (`policy`), whose verdict (`decideTaskFailure`) deliveries share.
 */
export class RetrySchedule {
  private constructor(
    readonly delaysMs: readonly number[],
    /** Each wait is moved by up to this fraction, either way, so that deliveries that failed together spread out. */
    readonly jitter: number,
  ) {}

  static readonly DEFAULT = '0,5s,5m,30m,2h,5h,10h,10h';

  /** Throws naming the first malformed step. */
  static parse(text: string, jitter: number): RetrySchedule {
    const steps = text.split(',').map((step) => step.trim());
    const delays = steps.map((step) => {
      const ms = parseDuration(step);
      if (ms === undefined) throw new Error(`"${step}" is not a duration (0, 250ms, 5s, 5m, 2h, 1d)`);
      return ms;
    });
    if (delays.length === 0 || delays.length > 100) throw new Error('must list 1 to 100 steps');
    return new RetrySchedule(delays, jitter);
  }

  get attempts(): number {
    return this.delaysMs.length;
  }

  /** The wait before the first attempt. */
  get firstDelayMs(): number {
    return this.delaysMs[0];
  }

  /** The schedule as a retry policy: its waits, and its length as the attempt budget (no backoff). */
  get policy(): RetryPolicy {
    const { delaysMs, jitter } = this;
    return { maxAttempts: delaysMs.length, baseDelayMs: 0, maxDelayMs: 0, schedule: { delaysMs, jitter } };
  }
}
