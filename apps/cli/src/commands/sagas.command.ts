import {
  CANCEL_REASON_MAX,
  cancelRunningSaga,
  retryFailedSaga,
  SAGA_STATES,
  SagaFilter,
  SagaState,
  SagaSummary,
  SagaViews,
} from '@app/saga';
import { CliContext } from '../cli-context';
import { CommandRefusedError, UsageError } from '../cli-errors';
import { formatFields, formatTable } from '../output/table';

export interface SagasOptions {
  json: boolean;
  state?: string;
  type?: string;
  key?: string;
  limit?: string;
  as?: string;
  reason?: string;
}

const LIST_COLUMNS: Array<keyof SagaSummary> = [
  'id',
  'type',
  'correlationId',
  'state',
  'step',
  'attempts',
  'failure',
  'lastError',
  'cancellation',
  'updatedAt',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `hookrail sagas list|show|retry|cancel`. */
export async function sagasCommand(
  ctx: CliContext,
  action: string | undefined,
  ids: string[],
  options: SagasOptions,
): Promise<void> {
  switch (action) {
    case 'list':
      return list(ctx, options);
    case 'show':
      return show(ctx, oneId(ids, 'show'), options);
    case 'retry':
      return retry(ctx, oneId(ids, 'retry'), options);
    case 'cancel':
      return cancel(ctx, oneId(ids, 'cancel'), options);
    default:
      throw new UsageError(
        action ? `unknown sagas command "${action}"` : 'sagas needs a command: list, show, retry or cancel',
      );
  }
}

function oneId(ids: string[], action: string): string {
  if (ids.length !== 1) throw new UsageError(`sagas ${action} takes one saga id`);
  if (!UUID.test(ids[0])) throw new UsageError(`"${ids[0]}" is not a saga id (a UUID)`);
  return ids[0];
}

async function list(ctx: CliContext, options: SagasOptions): Promise<void> {
  const filter: SagaFilter = { type: options.type, correlationId: options.key };
  if (options.state !== undefined) {
    if (!SAGA_STATES.includes(options.state as SagaState))
      throw new UsageError(`--state must be one of ${SAGA_STATES.join(', ')}`);
    filter.state = options.state as SagaState;
  }
  const limit = options.limit === undefined ? 50 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
  const database = await ctx.database();
  const [rows, byState] = await Promise.all([
    SagaViews.list(database, filter, limit),
    SagaViews.countByState(database),
  ]);
  if (options.json) return ctx.out(JSON.stringify({ byState, items: rows }, null, 2));
  const counts = SAGA_STATES.map((state) => `${state} ${byState.find((row) => row.state === state)?.count ?? 0}`);
  ctx.out(`${counts.join(', ')}\n\n${formatTable(rows, LIST_COLUMNS)}`);
}

async function show(ctx: CliContext, id: string, options: SagasOptions): Promise<void> {
  const saga = await SagaViews.find(await ctx.database(), id);
  if (!saga) throw new CommandRefusedError(`no saga with id ${id}`);
  if (options.json) return ctx.out(JSON.stringify(saga, null, 2));
  const { history, data, results, ...fields } = saga;
  ctx.out(
    [
      formatFields(fields),
      '',
      'history:',
      formatTable(history, ['seq', 'at', 'step', 'phase', 'event', 'state', 'causeType', 'sentType', 'detail'], 80),
      '',
      'results:',
      JSON.stringify(results, null, 2),
      '',
      'data:',
      JSON.stringify(data, null, 2),
    ].join('\n'),
  );
}

async function retry(ctx: CliContext, id: string, options: SagasOptions): Promise<void> {
  const actor = ctx.actor(options.as);
  const result = await retryFailedSaga(await ctx.database(), id, actor);
  if (result.outcome === 'not-found') throw new CommandRefusedError(`no saga with id ${id}`);
  if (result.outcome === 'not-failed')
    throw new CommandRefusedError(
      `only a failed saga can be retried; ${result.retryPending ? 'a retry is already pending' : `it is ${result.state}`}`,
    );
  ctx.out(
    options.json
      ? JSON.stringify(result, null, 2)
      : `retry of saga ${id} scheduled as ${actor}: the coordinator sends the compensation of ${result.step} again`,
  );
}

async function cancel(ctx: CliContext, id: string, options: SagasOptions): Promise<void> {
  const reason = options.reason?.trim();
  if (reason !== undefined && (reason.length === 0 || reason.length > CANCEL_REASON_MAX))
    throw new UsageError(`--reason must be 1 to ${CANCEL_REASON_MAX} characters`);
  const actor = ctx.actor(options.as);
  const result = await cancelRunningSaga(await ctx.database(), id, actor, reason);
  if (result.outcome === 'not-found') throw new CommandRefusedError(`no saga with id ${id}`);
  if (result.outcome === 'not-running')
    throw new CommandRefusedError(
      `only a running saga can be cancelled; ${result.cancelPending ? 'a cancel is already pending' : `it is ${result.state}`}`,
    );
  ctx.out(
    options.json
      ? JSON.stringify(result, null, 2)
      : `cancel of saga ${id} requested as ${actor}: the coordinator undoes what it did, from ${result.step} down, and it ends cancelled`,
  );
}
