import { Identity } from '@app/access';
import { StatusReader } from './status-access';
import { RecheckAnswer, TokenRecheck } from './token-recheck';

const identity: Identity = { name: 'st', role: 'status', groups: null, sources: ['shop'] };
const stored: StatusReader = { kind: 'token', identity, bearer: 'hrk_st' };

/** A check that answers from a list and counts its calls. */
function checks(...answers: Array<RecheckAnswer | Error>) {
  const calls: string[] = [];
  const check = async (bearer: string) => {
    calls.push(bearer);
    const answer = answers.shift()!;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { calls, check };
}

describe('TokenRecheck', () => {
  it('checks a stored token again once everyMs has passed since the last good check, not before', async () => {
    const { calls, check } = checks(stored, stored);
    const recheck = new TokenRecheck(stored, 1000, check, 0);
    expect(await recheck.state(999)).toBe('allowed');
    expect(calls).toEqual([]);
    expect(await recheck.state(1000)).toBe('allowed');
    expect(calls).toEqual(['hrk_st']);
    expect(await recheck.state(1999)).toBe('allowed');
    expect(await recheck.state(2000)).toBe('allowed');
    expect(calls).toHaveLength(2);
  });

  it('says why once the token is refused', async () => {
    const { check } = checks({ refused: 'token st was revoked at 2026-01-01T00:00:00.000Z' });
    const recheck = new TokenRecheck(stored, 1000, check, 0);
    expect(await recheck.state(1500)).toEqual({ refused: 'token st was revoked at 2026-01-01T00:00:00.000Z' });
  });

  it('sends nothing while a check goes unanswered, and checks again at the next poll', async () => {
    const { calls, check } = checks(new Error('database unavailable'), stored);
    const recheck = new TokenRecheck(stored, 1000, check, 0);
    expect(await recheck.state(1000)).toBe('unanswered');
    expect(recheck.waitMs(500, 1000)).toBe(500);
    expect(await recheck.state(1500)).toBe('allowed');
    expect(calls).toHaveLength(2);
  });

  it('waits no longer than the next check is due', () => {
    const recheck = new TokenRecheck(stored, 200, checks().check, 0);
    expect(recheck.waitMs(500, 50)).toBe(150);
    expect(recheck.waitMs(100, 50)).toBe(100);
  });

  it('never checks a producer token or public access again', async () => {
    const { calls, check } = checks();
    for (const reader of [{ kind: 'producer' }, { kind: 'anyone' }] as StatusReader[]) {
      const recheck = new TokenRecheck(reader, 100, check, 0);
      expect(await recheck.state(10_000)).toBe('allowed');
      expect(recheck.waitMs(500, 10_000)).toBe(500);
    }
    expect(calls).toEqual([]);
  });
});
