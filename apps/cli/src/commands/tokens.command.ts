import {
  createOperatorToken,
  listOperatorTokens,
  parseExpiry,
  revokeOperatorToken,
  TokenInputError,
  TokenRefusedError,
} from '@app/access';
import { ConsumerGroupOwnersRepository } from '@app/consumer-runtime/light';
import { managerRows } from '@app/db/light';
import { CliContext } from '../cli-context';
import { CommandRefusedError, UsageError } from '../cli-errors';
import { formatTable } from '../output/table';

export interface TokensOptions {
  json: boolean;
  as?: string;
  role?: string;
  /** Comma-separated consumer groups. */
  groups?: string;
  /** Comma-separated event sources (status tokens). */
  sources?: string;
  /** `30d`, `12h` or an ISO time. */
  expires?: string;
}

/** `hookrail tokens create|list|revoke`: the operator API's named tokens. */
export async function tokensCommand(
  ctx: CliContext,
  action: string | undefined,
  args: string[],
  options: TokensOptions,
): Promise<void> {
  const name = () => {
    if (args.length !== 1) throw new UsageError(`tokens ${action} takes one token name`);
    return args[0];
  };
  switch (action) {
    case 'create':
      return asCliErrors(() => create(ctx, name(), options));
    case 'list':
      return list(ctx, options);
    case 'revoke': {
      const revoked = name();
      await asCliErrors(async () => revokeOperatorToken(await ctx.database(), revoked, ctx.actor(options.as)));
      return ctx.out(`revoked token '${revoked}': it is refused from now on`);
    }
    default:
      throw new UsageError(
        action ? `unknown tokens command "${action}"` : 'tokens needs a command: create, list or revoke',
      );
  }
}

async function create(ctx: CliContext, name: string, options: TokensOptions): Promise<void> {
  if (!options.role) throw new UsageError('tokens create needs --role viewer|operator|admin|status');
  const expiresAt = options.expires === undefined ? null : parseExpiry(options.expires);
  const database = await ctx.database();
  const knownGroups = await new ConsumerGroupOwnersRepository(managerRows(database.manager)).knownGroups();
  const { token, identity } = await createOperatorToken(database, {
    name,
    role: options.role,
    groups: listOption(options.groups),
    sources: listOption(options.sources),
    expiresAt,
    createdBy: ctx.actor(options.as),
    knownGroups,
  });
  if (options.json) return ctx.out(JSON.stringify({ ...identity, expiresAt, token }, null, 2));
  ctx.out(
    `token '${identity.name}' (${identity.role}${identity.groups ? `, groups ${identity.groups.join(',')}` : ''}` +
      `${identity.sources ? `, sources ${identity.sources.join(',')}` : ''}` +
      `${expiresAt ? `, expires ${expiresAt.toISOString()}` : ''}):`,
  );
  ctx.out(token);
  ctx.out('This token is shown only once: store it now; hookrail keeps only its digest.');
}

async function list(ctx: CliContext, options: TokensOptions): Promise<void> {
  const tokens = await listOperatorTokens(await ctx.database());
  if (options.json) return ctx.out(JSON.stringify(tokens, null, 2));
  ctx.out(
    formatTable(
      tokens.map((token) => ({
        ...token,
        groups: token.groups?.join(',') ?? (token.role === 'status' ? '' : '*'),
        sources: token.sources?.join(',') ?? (token.role === 'status' ? '*' : ''),
        created: token.createdAt,
        expires: token.expiresAt ?? '',
      })),
      ['name', 'role', 'groups', 'sources', 'created', 'expires', 'state'],
    ),
  );
}

/** `a,b` → ['a', 'b']; absent → null (every group, every source). */
function listOption(value: string | undefined): string[] | null {
  return value === undefined ? null : value.split(',');
}

/** The library's refusals as the CLI's: bad input is a usage error (exit 2), a taken or unknown name a refusal (1). */
async function asCliErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TokenInputError) throw new UsageError(error.message);
    if (error instanceof TokenRefusedError) throw new CommandRefusedError(error.message);
    throw error;
  }
}
