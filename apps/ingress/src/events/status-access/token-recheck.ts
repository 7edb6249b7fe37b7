import { StatusReader } from './status-access';

export type RecheckAnswer = StatusReader | { refused: string };

/** What a long-lived reader may do now: go on, stop (`refused` says why), or wait (its check went unanswered). */
export type RecheckState = 'allowed' | 'unanswered' | { refused: string };

/**
 * The re-authorisation of a long-lived connection (the status stream): a stored token is checked again once
 * `everyMs` has passed since its last good check. A refusal ends the connection; a check that fails (the database
 * is down) sends nothing until one succeeds. Producer tokens and public access come from the configuration and
 * are never checked again.
 */
export class TokenRecheck {
  private checkedAt: number;

  constructor(
    private readonly reader: StatusReader,
    private readonly everyMs: number,
    private readonly check: (bearer: string) => Promise<RecheckAnswer>,
    now = Date.now(),
  ) {
    this.checkedAt = now;
  }

  async state(now = Date.now()): Promise<RecheckState> {
    if (this.reader.kind !== 'token' || now - this.checkedAt < this.everyMs) return 'allowed';
    const answer = await this.check(this.reader.bearer).catch(() => undefined);
    if (!answer) return 'unanswered';
    if ('refused' in answer) return answer;
    this.checkedAt = now;
    return 'allowed';
  }

  /**
   * How long the connection waits before its next poll: `pollMs`, or less when the next check is due sooner (after
   * an unanswered check, `pollMs` again rather than at once).
   */
  waitMs(pollMs: number, now = Date.now()): number {
    if (this.reader.kind !== 'token') return pollMs;
    const due = this.checkedAt + this.everyMs - now;
    return due > 0 ? Math.min(pollMs, due) : pollMs;
  }
}
