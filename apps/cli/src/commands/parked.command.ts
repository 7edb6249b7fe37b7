import {
  ConfirmationRequiredError,
  ParkedKeysRepository,
  ParkedKeySummary,
  purgeParkedKey,
  PurgeParkedKeyResult,
} from '@app/dead-letters/light';
import { CliContext } from '../cli-context';
import { UsageError } from '../cli-errors';
import { formatTable } from '../output/table';

const PARKED_COLUMNS: Array<keyof ParkedKeySummary> = [
  'group',
  'key',
  'headDeadLetterId',
  'headStatus',
  'headErrorClass',
  'parkedEvents',
  'parkedAt',
];

/** The parked keys as a table, or a line saying there are none. */
export async function parkedKeysTable(ctx: CliContext, filter: { group?: string; key?: string }): Promise<string> {
  const keys = await new ParkedKeysRepository(await ctx.database()).list(filter, 200);
  if (keys.length === 0) return 'no parked keys';
  return [
    `parked keys (their later events wait behind the head dead letter; replay or purge the head to release them):`,
    formatTable(keys, PARKED_COLUMNS),
  ].join('\n');
}

/** `hookrail dlq parked`: the keys groups hold back, each with its head dead letter and the events behind it. */
export async function parkedCommand(
  ctx: CliContext,
  options: { json: boolean; group?: string; key?: string },
): Promise<void> {
  if (options.json) {
    const keys = await new ParkedKeysRepository(await ctx.database()).list(options, 1000);
    return ctx.out(JSON.stringify(keys, null, 2));
  }
  ctx.out(await parkedKeysTable(ctx, options));
}

/**
 * Runs a change that may need the operator's word because parked events follow: first without it; if the use case
 * asks, shows what waits and asks (`--yes` answers in advance; without a terminal to ask on it is a usage error).
 */
export async function withConfirmation<T>(
  ctx: CliContext,
  yes: boolean,
  change: (confirmed: boolean) => Promise<T>,
  question: string,
): Promise<T | undefined> {
  try {
    return await change(yes);
  } catch (error) {
    if (!(error instanceof ConfirmationRequiredError)) throw error;
    ctx.out(error.message);
    if (!ctx.canAsk) throw new UsageError(`${question}: run again with --yes to confirm; nothing changed`);
    if (!(await ctx.ask(`${question}? [y/N] `))) {
      ctx.out('not confirmed; nothing changed');
      return undefined;
    }
    return change(true);
  }
}

/** `hookrail dlq purge-key --group G --key K`: the key's dead letters and parked events purged, the key released. */
export async function purgeKeyCommand(
  ctx: CliContext,
  actor: string,
  options: { json: boolean; dryRun: boolean; yes: boolean; group?: string; key?: string },
): Promise<void> {
  const { group, key } = options;
  if (!group || !key) throw new UsageError('dlq purge-key needs --group and --key');
  const database = await ctx.database();
  const result = await withConfirmation(
    ctx,
    options.yes,
    (confirmed) => purgeParkedKey(database, { group, key, actor, dryRun: options.dryRun, confirmed }),
    `purge key "${key}" of group ${group} with every event parked behind it`,
  );
  if (!result) return;
  if (options.json) return ctx.out(JSON.stringify(result, null, 2));
  ctx.out(describePurgeKey(result, actor));
}

function describePurgeKey(result: PurgeParkedKeyResult, actor: string): string {
  const what = `key "${result.key}" of group ${result.group}`;
  if (result.dryRun)
    return result.wasParked
      ? `dry run: would purge ${what}: its head dead letter and ${result.parkedEvents} parked event(s); nothing changed`
      : `dry run: ${what} is not parked; would purge its dead letters only; nothing changed`;
  return `purged ${result.purged.length} dead letter(s) and parked event(s) of ${what} as ${actor}${result.wasParked ? '; the key is released' : ''}`;
}
