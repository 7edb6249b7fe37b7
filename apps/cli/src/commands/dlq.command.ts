import { managerRows } from '@app/db/light';
import { ConsumerGroupOwnersRepository } from '@app/consumer-runtime/light';
import {
  DeadLetterFilter,
  DeadLettersRepository,
  DeadLetterSummary,
  parseFilter,
  purgeDeadLetters,
  replayDeadLetters,
} from '@app/dead-letters/light';
import { CliContext } from '../cli-context';
import { CommandRefusedError, UsageError } from '../cli-errors';
import { formatFields, formatTable } from '../output/table';
import { parkedCommand, parkedKeysTable, purgeKeyCommand, withConfirmation } from './parked.command';

export interface DlqOptions {
  json: boolean;
  dryRun: boolean;
  all: boolean;
  /** Confirms in advance a purge that releases (or drops) parked events. */
  yes: boolean;
  limit?: string;
  rate?: string;
  as?: string;
  group?: string;
  type?: string;
  errorClass?: string;
  key?: string;
  eventId?: string;
  since?: string;
  until?: string;
  status?: string;
}

const LIST_COLUMNS: Array<keyof DeadLetterSummary> = [
  'id',
  'group',
  'type',
  'key',
  'errorClass',
  'errorMessage',
  'attempts',
  'status',
  'replayCount',
  'deadAt',
];

/** `hookrail dlq list|show|replay|purge|parked|purge-key`. */
export async function dlqCommand(
  ctx: CliContext,
  action: string | undefined,
  ids: string[],
  options: DlqOptions,
): Promise<void> {
  switch (action) {
    case 'list':
      return list(ctx, options);
    case 'show':
      return show(ctx, ids, options);
    case 'replay':
    case 'purge':
      return change(ctx, action, ids, options);
    case 'parked':
      return parkedCommand(ctx, options);
    case 'purge-key':
      return purgeKeyCommand(ctx, ctx.actor(options.as), options);
    default:
      throw new UsageError(
        action
          ? `unknown dlq command "${action}"`
          : 'dlq needs a command: list, show, replay, purge, parked or purge-key',
      );
  }
}

function filterOf(ids: string[], options: DlqOptions): DeadLetterFilter {
  return parseFilter({
    ids: ids.length ? ids : undefined,
    group: options.group,
    type: options.type,
    errorClass: options.errorClass,
    key: options.key,
    eventId: options.eventId,
    since: options.since,
    until: options.until,
    status: options.status,
  });
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`--${name} must be a positive integer`);
  return parsed;
}

/** Each dead letter with the team that owns its group (as the group's service declares it), newest first. */
async function list(ctx: CliContext, options: DlqOptions): Promise<void> {
  const filter = filterOf([], options);
  const database = await ctx.database();
  const [rows, owners] = await Promise.all([
    new DeadLettersRepository(database).list(filter, positiveInt(options.limit, 'limit', 50)),
    new ConsumerGroupOwnersRepository(managerRows(database.manager)).list(),
  ]);
  const ownerOf = (group: string) => {
    const found = owners.find((owner) => owner.group === group);
    return found ? { team: found.team, contact: found.contact } : null;
  };
  const listed = rows.map((deadLetter) => ({ ...deadLetter, owner: ownerOf(deadLetter.group) }));
  if (options.json) return ctx.out(JSON.stringify(listed, null, 2));
  const [id, group, ...rest] = LIST_COLUMNS;
  ctx.out(
    formatTable(
      listed.map((deadLetter) => ({
        ...deadLetter,
        owner: deadLetter.owner ? `${deadLetter.owner.team} <${deadLetter.owner.contact}>` : '',
      })),
      [id, group, 'owner', ...rest],
    ),
  );
  if (filter.status === undefined || filter.status === 'dead')
    ctx.out(`\n${await parkedKeysTable(ctx, { group: filter.group, key: filter.key })}`);
}

async function show(ctx: CliContext, ids: string[], options: DlqOptions): Promise<void> {
  if (ids.length !== 1) throw new UsageError('dlq show takes one dead-letter id');
  const { ids: [id] = [] } = parseFilter({ ids });
  const row = await new DeadLettersRepository(await ctx.database()).find(id);
  if (!row) throw new CommandRefusedError(`no dead letter with id ${id}`);
  if (options.json) return ctx.out(JSON.stringify(row, null, 2));
  const { payload, headers, errorStack, ...fields } = row;
  ctx.out(
    [
      formatFields(fields),
      '',
      'headers:',
      JSON.stringify(headers, null, 2),
      '',
      'payload:',
      payload ?? '',
      '',
      'stack:',
      errorStack ?? '',
    ].join('\n'),
  );
}

async function change(ctx: CliContext, action: 'replay' | 'purge', ids: string[], options: DlqOptions): Promise<void> {
  const filter = filterOf(ids, options);
  if (Object.keys(filter).length === 0 && !options.all)
    throw new UsageError(
      `dlq ${action} needs ids or a filter (--group, --type, --error-class, --key, --since, ...), or --all`,
    );
  if (filter.status)
    throw new UsageError(`dlq ${action} works on dead letters in status dead; --status does not apply`);
  const actor = ctx.actor(options.as);
  const limit = positiveInt(options.limit, 'limit', 1000);
  const database = await ctx.database();
  const result =
    action === 'replay'
      ? await replayDeadLetters(database, () => ctx.kafkaProducer(), {
          filter,
          actor,
          dryRun: options.dryRun,
          limit,
          ratePerSecond: positiveInt(options.rate, 'rate', 100),
        })
      : await withConfirmation(
          ctx,
          options.yes,
          (confirmParked) =>
            purgeDeadLetters(database, { filter, actor, dryRun: options.dryRun, limit, confirmParked }),
          'purge, and replay in order the events parked behind',
        );
  if (!result) return;
  if (options.json) return ctx.out(JSON.stringify(result, null, 2));
  if (result.dryRun) {
    ctx.out(`dry run: would ${action} ${result.matched} dead letter(s); nothing changed`);
    if (result.candidates?.length) ctx.out(formatTable(result.candidates, LIST_COLUMNS));
    if ('parkedBehind' in result)
      for (const entry of result.parkedBehind)
        ctx.out(
          `${entry.deadLetterId} holds key "${entry.key}" of group ${entry.group}: purging it replays the ${entry.parkedEvents} parked event(s) behind it, in order`,
        );
    return;
  }
  const changed = 'replayed' in result ? result.replayed : result.purged;
  ctx.out(
    `${action === 'replay' ? 'replayed' : 'purged'} ${changed.length} of ${result.matched} matching dead letter(s) as ${actor}${changed.length ? `: ${changed.join(', ')}` : ''}`,
  );
}
