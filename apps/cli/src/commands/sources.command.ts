import { SourceRejection, SourceRejectionsRepository, summarizeRejections } from '@app/rejections';
import { CliContext } from '../cli-context';
import { UsageError } from '../cli-errors';
import { formatTable } from '../output/table';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

/**
 * `hookrail sources`: every source with rejected deliveries kept (the ingress keeps the newest
 * REJECTIONS_KEPT_PER_SOURCE of each), how many by reason and the latest. `hookrail sources rejections <name>`: those
 * deliveries, newest first; `--json` adds their headers (no credentials or signatures) and redacted body prefix.
 */
export async function sourcesCommand(
  ctx: CliContext,
  action: string | undefined,
  args: string[],
  options: { json: boolean; limit?: string },
): Promise<void> {
  const repository = new SourceRejectionsRepository(await ctx.rows());
  if (action === undefined || action === 'list') {
    if (args.length > 0) throw new UsageError('sources takes no arguments; sources rejections <name> lists one');
    const sources = summarizeRejections(await repository.countByReason());
    if (options.json) return ctx.out(JSON.stringify(sources, null, 2));
    ctx.out(
      sources.length === 0
        ? 'no rejected deliveries kept (configured sources with none are not listed: the CLI reads only the database)'
        : formatTable(
            sources.map((source) => ({
              source: source.source,
              kept: source.kept,
              byReason: Object.entries(source.byReason)
                .sort((a, b) => b[1] - a[1])
                .map(([reason, count]) => `${reason} ×${count}`)
                .join(', '),
              lastRejected: source.lastAt,
            })),
            ['source', 'kept', 'byReason', 'lastRejected'],
            80,
          ),
    );
    return;
  }
  if (action !== 'rejections') throw new UsageError(`unknown sources command "${action}"`);
  if (args.length !== 1) throw new UsageError('sources rejections takes one source name');
  const limit = options.limit === undefined ? DEFAULT_LIMIT : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new UsageError(`--limit must be an integer from 1 to ${MAX_LIMIT}`);
  const rejections = await repository.forSource(args[0], limit);
  if (options.json) return ctx.out(JSON.stringify(rejections, null, 2));
  ctx.out(
    rejections.length === 0
      ? `no rejected deliveries kept for source "${args[0]}"`
      : formatTable(rejections.map(row), ['id', 'received', 'answer', 'message', 'path', 'bytes'], 70),
  );
}

function row(rejection: SourceRejection) {
  return {
    id: rejection.id,
    received: rejection.receivedAt,
    answer: `${rejection.status} ${rejection.reason}`,
    message: rejection.message,
    path: rejection.path,
    bytes: rejection.bodyBytes,
  };
}
