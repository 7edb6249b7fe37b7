import { AccessTokens } from '@app/access';
import { Database } from '@app/db';
import { unauthorized } from '@app/http';
import { Inject, Injectable } from '@nestjs/common';
import { EventStatusAccess } from '../../config/ingress.env';
import { ProducerTokens } from '../usecases/accept-cloudevent/producer-auth';
import { bearerOf } from '@app/http';
import { MISSING_BEARER, StatusReader } from './status-access';

export const STATUS_ACCESS_SETTINGS = Symbol('STATUS_ACCESS_SETTINGS');

export interface StatusAccessSettings {
  mode: EventStatusAccess;
  /** How often an open stream checks its stored token again. */
  recheckMs: number;
}

/**
 * Who is asking for an event's status: a producer token (compared in memory) or a stored token (read from the
 * database at every call, so that a revocation or an expiry holds from the next call on).
 */
@Injectable()
export class StatusReaders {
  constructor(
    @Inject(STATUS_ACCESS_SETTINGS) readonly settings: StatusAccessSettings,
    private readonly producers: ProducerTokens,
    private readonly tokens: AccessTokens,
    private readonly database: Database,
  ) {}

  /** The reader of `Authorization`, or a 401 that names what to send or why the token is refused. */
  async identify(authorization: string | undefined): Promise<StatusReader> {
    if (this.settings.mode === 'public') return { kind: 'anyone' };
    const bearer = bearerOf(authorization);
    if (bearer === null) throw unauthorized(MISSING_BEARER);
    if (this.producers.matches(bearer)) return { kind: 'producer' };
    const reader = await this.recheck(bearer);
    if ('refused' in reader) throw unauthorized(reader.refused);
    return reader;
  }

  /** The stored token's reader again, or why it is refused now (revoked, expired, unknown). */
  async recheck(bearer: string): Promise<StatusReader | { refused: string }> {
    await this.database.connection();
    const identity = await this.tokens.authenticate(bearer);
    return 'refused' in identity ? identity : { kind: 'token', identity, bearer };
  }
}
