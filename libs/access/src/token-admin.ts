import { OperatorAuditRepository } from '@app/audit';
import { DataSource } from 'typeorm';
import { TokenRefusedError } from './access-errors';
import { IssueTokenInput, issueToken, tokenState, TokenState } from './access-tokens';
import { OperatorToken, OperatorTokensRepository } from './operator-tokens.repository';
import { Identity } from './roles';

const SUBJECT_TYPE = 'operator-token';

export type OperatorTokenView = OperatorToken & { state: TokenState };

/** Issues a token and audits it in one transaction; the audit holds what the token may do, never the token. */
export async function createOperatorToken(
  dataSource: DataSource,
  input: IssueTokenInput,
): Promise<{ token: string; identity: Identity }> {
  return dataSource.transaction(async (manager) => {
    const issued = await issueToken(new OperatorTokensRepository(manager), input);
    const { role, groups, sources } = issued.identity;
    await new OperatorAuditRepository(manager).record({
      actor: input.createdBy,
      action: 'token-created',
      subjectType: SUBJECT_TYPE,
      subjectId: issued.identity.name,
      details: { role, groups, sources, expiresAt: input.expiresAt?.toISOString() ?? null },
      count: 1,
    });
    return issued;
  });
}

/** Revokes a live token and audits it in one transaction; a name with no live token is refused with the reason. */
export async function revokeOperatorToken(dataSource: DataSource, name: string, actor: string): Promise<void> {
  await dataSource.transaction(async (manager) => {
    const tokens = new OperatorTokensRepository(manager);
    if (!(await tokens.revoke(name, actor))) {
      throw new TokenRefusedError(notLive(name, await tokens.findByName(name)));
    }
    await new OperatorAuditRepository(manager).record({
      actor,
      action: 'token-revoked',
      subjectType: SUBJECT_TYPE,
      subjectId: name,
      details: {},
      count: 1,
    });
  });
}

function notLive(name: string, found: OperatorToken | null): string {
  if (!found) return `no token is named '${name}'`;
  if (found.revokedAt) return `token '${name}' was already revoked at ${found.revokedAt.toISOString()}`;
  return `token '${name}' expired at ${found.expiresAt?.toISOString()}: there is nothing to revoke`;
}

/** Every token with its state, by name; never a token or its digest. */
export async function listOperatorTokens(dataSource: DataSource, now = new Date()): Promise<OperatorTokenView[]> {
  const tokens = await new OperatorTokensRepository(dataSource).list();
  return tokens.map((token) => ({ ...token, state: tokenState(token, now) }));
}
