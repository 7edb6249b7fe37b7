import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TokenInputError, TokenRefusedError } from './access-errors';
import { NewOperatorToken, OperatorToken, OperatorTokensRepository } from './operator-tokens.repository';
import { Identity, isRole, ROLES, withArticle } from './roles';

/** The identity of the bootstrap token (`ADMIN_TOKEN`); no stored token may take its name. */
export const BOOTSTRAP_TOKEN_NAME = 'admin';

const TOKEN_PREFIX = 'hrk_';
const NAME = /^[\w.@-]{1,100}$/;

export interface IssueTokenInput {
  name: string;
  role: string;
  groups?: string[] | null;
  sources?: string[] | null;
  expiresAt?: Date | null;
  createdBy: string;
  /** The consumer groups `groups` must name; absent: not checked. */
  knownGroups?: readonly string[];
}

export type TokenState = 'live' | 'revoked' | 'expired';

/** A new bearer token: the prefix that says whose it is (`hrk_`, `hrc_`) and 32 random bytes, base64url. */
export function newBearerToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** sha256 of a token, hex: what is stored and looked up. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function tokenState(token: Pick<OperatorToken, 'revokedAt' | 'expiresAt'>, now = new Date()): TokenState {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'live';
}

/**
 * Makes a token and stores its digest: the token is returned this once and can never be read back. Refuses a bad
 * name, role, group or source list (TokenInputError) and a name already taken (TokenRefusedError).
 */
export async function issueToken(
  repo: OperatorTokensRepository,
  input: IssueTokenInput,
): Promise<{ token: string; identity: Identity }> {
  const fields = validTokenFields(input);
  if (await repo.findByName(fields.name)) throw taken(fields.name);
  const token = newBearerToken(TOKEN_PREFIX);
  await repo.insert({ ...fields, tokenHash: tokenHash(token) }).catch((error: unknown) => {
    // Another request took the name between the check and the insert.
    throw (error as { code?: string }).code === '23505' ? taken(fields.name) : error;
  });
  const { name, role, groups, sources } = fields;
  return { token, identity: { name, role, groups, sources } };
}

function taken(name: string): TokenRefusedError {
  return new TokenRefusedError(`a token named '${name}' already exists (names stay taken after a revocation)`);
}

function validTokenFields(input: IssueTokenInput): Omit<NewOperatorToken, 'tokenHash'> {
  const { name, role, createdBy } = input;
  if (!NAME.test(name))
    throw new TokenInputError(`the token name "${name}" must be 1 to 100 letters, digits, "_", ".", "@" or "-"`);
  if (name === BOOTSTRAP_TOKEN_NAME) throw new TokenInputError(`the name "${name}" is the bootstrap token's`);
  if (!isRole(role)) throw new TokenInputError(`the role "${role}" is not one of ${ROLES.join(', ')}`);
  const groups = listOf(input.groups, 'groups');
  const sources = listOf(input.sources, 'sources');
  if (groups && (role === 'admin' || role === 'status'))
    throw new TokenInputError(`${withArticle(role)} token cannot be limited to groups`);
  if (sources && role !== 'status') throw new TokenInputError('only a status token is limited to sources');
  const unknown = groups?.filter((group) => input.knownGroups && !input.knownGroups.includes(group)) ?? [];
  if (unknown.length)
    throw new TokenInputError(
      `unknown consumer group ${unknown.map((group) => `'${group}'`).join(', ')} (known: ${input.knownGroups?.join(', ')})`,
    );
  return { name, role, groups, sources, createdBy, expiresAt: input.expiresAt ?? null };
}

/** A list as given, without repeats; null when absent; never empty. */
function listOf(values: string[] | null | undefined, what: string): string[] | null {
  if (values === null || values === undefined) return null;
  const list = [...new Set(values.map((value) => value.trim()))];
  if (list.length === 0 || list.some((value) => value === ''))
    throw new TokenInputError(`the ${what} list is empty or holds an empty name`);
  return list;
}

/**
 * Who a bearer token is: the bootstrap token (`ADMIN_TOKEN`, when one is configured) or a stored one that is live.
 * Every call reads the database, so that a revocation takes effect at the next request.
 */
export class AccessTokens {
  private readonly bootstrapDigest: Buffer | null;

  constructor(
    bootstrapToken: string | undefined,
    /** Only its lookup by digest: a process may hand one that opens its connection when first asked. */
    private readonly repo: Pick<OperatorTokensRepository, 'findByHash'>,
  ) {
    this.bootstrapDigest = bootstrapToken ? digest(bootstrapToken) : null;
  }

  async authenticate(bearer: string): Promise<Identity | { refused: string }> {
    if (this.bootstrapDigest && timingSafeEqual(digest(bearer), this.bootstrapDigest))
      return { name: BOOTSTRAP_TOKEN_NAME, role: 'admin', groups: null, sources: null };
    const stored = bearer ? await this.repo.findByHash(tokenHash(bearer)) : null;
    if (!stored) return { refused: 'the bearer token is not valid' };
    switch (tokenState(stored)) {
      case 'revoked':
        return { refused: `token ${stored.name} was revoked at ${stored.revokedAt!.toISOString()}` };
      case 'expired':
        return { refused: `token ${stored.name} expired at ${stored.expiresAt!.toISOString()}` };
      case 'live':
        return { name: stored.name, role: stored.role, groups: stored.groups, sources: stored.sources };
    }
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
