import {
  createOperatorToken,
  Identity,
  listOperatorTokens,
  OperatorTokenView,
  parseExpiry,
  revokeOperatorToken,
  TokenInputError,
  TokenRefusedError,
} from '@app/access';
import { ConsumerGroupOwnersRepository } from '@app/consumer-runtime';
import { Database, managerRows } from '@app/db';
import { malformed, notFound, Problem } from '@app/http';
import { Injectable } from '@nestjs/common';

/** A token as the API shows it: never the token or its digest. */
export type TokenView = Omit<OperatorTokenView, 'createdAt' | 'expiresAt' | 'revokedAt'> & {
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
};

/**
 * GET /admin/tokens, POST /admin/tokens (`{name, role, groups?, sources?, expires?}`: the token in this answer only)
 * and POST /admin/tokens/:name/revoke: the operator tokens, each change audited with the caller's token name.
 */
@Injectable()
export class TokensAdminUseCase {
  constructor(private readonly database: Database) {}

  async list(): Promise<TokenView[]> {
    return (await listOperatorTokens(await this.database.connection())).map(view);
  }

  async create(
    body: Record<string, unknown>,
    actor: string,
  ): Promise<Identity & { token: string; expiresAt: string | null }> {
    const list = (name: string) => {
      const value = body[name];
      if (value === undefined || value === null) return null;
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
        throw malformed(`${name} must be a list of names`);
      return value as string[];
    };
    for (const name of ['name', 'role'])
      if (typeof body[name] !== 'string') throw malformed(`${name} is required and must be a string`);
    if (body.expires !== undefined && typeof body.expires !== 'string')
      throw malformed('expires must be a duration (30d, 12h, 90m) or an ISO time');
    const dataSource = await this.database.connection();
    const knownGroups = await new ConsumerGroupOwnersRepository(managerRows(dataSource.manager)).knownGroups();
    return guard(async () => {
      const expiresAt = typeof body.expires === 'string' ? parseExpiry(body.expires) : null;
      const { token, identity } = await createOperatorToken(dataSource, {
        name: body.name as string,
        role: body.role as string,
        groups: list('groups'),
        sources: list('sources'),
        expiresAt,
        createdBy: actor,
        knownGroups,
      });
      return { ...identity, token, expiresAt: expiresAt?.toISOString() ?? null };
    });
  }

  async revoke(name: string, actor: string): Promise<{ revoked: string }> {
    await guard(async () => revokeOperatorToken(await this.database.connection(), name, actor));
    return { revoked: name };
  }
}

function view(token: OperatorTokenView): TokenView {
  return {
    ...token,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

/** The library's refusals as 4xx answers: bad input 400, no such token 404, a taken name or a dead token 409. */
async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TokenInputError) throw malformed(error.message);
    if (!(error instanceof TokenRefusedError)) throw error;
    if (/^no token is named/.test(error.message)) throw notFound(error.message);
    throw new Problem(409, /already exists/.test(error.message) ? 'token_name_taken' : 'token_not_live', error.message);
  }
}
