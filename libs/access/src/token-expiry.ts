import { TokenInputError } from './access-errors';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30d`, `12h`, `90m` from `now`, or an ISO time; it must lie in the future. */
export function parseExpiry(value: string, now = new Date()): Date {
  const duration = /^(\d+)([mhd])$/.exec(value);
  const at = duration
    ? new Date(now.getTime() + Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS])
    : /^\d{4}-\d{2}-\d{2}/.test(value)
      ? new Date(value)
      : null;
  if (!at || Number.isNaN(at.getTime()))
    throw new TokenInputError(`the expiry "${value}" is neither a duration like 30d, 12h or 90m nor an ISO time`);
  if (at.getTime() <= now.getTime()) throw new TokenInputError(`the expiry "${value}" is not in the future`);
  return at;
}
