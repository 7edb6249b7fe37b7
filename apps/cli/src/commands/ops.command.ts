import { listBreakers } from '@app/consumer-runtime/light';
import { managerRows } from '@app/db/light';
import { OutboxRepository } from '@app/outbox';
import { CliContext } from '../cli-context';
import { formatFields, formatTable } from '../output/table';

/** `hookrail outbox backlog`: rows the relay has not published yet. */
export async function outboxBacklogCommand(ctx: CliContext, options: { json: boolean }): Promise<void> {
  const backlog = await new OutboxRepository(managerRows((await ctx.database()).manager)).backlog();
  if (options.json) return ctx.out(JSON.stringify(backlog, null, 2));
  ctx.out(
    formatFields({ unpublished: backlog.unpublished, parked: backlog.parked, 'oldest (s)': backlog.oldestAgeSeconds }),
  );
  if (backlog.byTopic.length)
    ctx.out(`\n${formatTable(backlog.byTopic, ['topic', 'unpublished', 'oldestAgeSeconds'])}`);
}

/**
 * `hookrail breakers`: one line per open circuit breaker ("notifier: email-provider unavailable since …"), `--all`
 * for the closed ones too. While a breaker is open its group's waiting partitions are paused and their lag grows.
 */
export async function breakersCommand(ctx: CliContext, options: { json: boolean; all: boolean }): Promise<void> {
  const breakers = await listBreakers(await ctx.database(), { openOnly: !options.all });
  if (options.json) return ctx.out(JSON.stringify(breakers, null, 2));
  if (breakers.length === 0) return ctx.out(options.all ? 'no breaker has changed state yet' : 'no breaker open');
  const now = Date.now();
  for (const breaker of breakers) {
    const since = `${breaker.since.toISOString()} (${formatAge(now - breaker.since.getTime())})`;
    ctx.out(
      breaker.state === 'open'
        ? `${breaker.group}: ${breaker.dependency} unavailable since ${since}; last error: ${breaker.lastError ?? '-'}`
        : `${breaker.group}: ${breaker.dependency} answering since ${since}`,
    );
  }
}

/** `75_000` → `1m15s`. */
function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const parts = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'm'],
    [seconds % 60, 's'],
  ] as const;
  return (
    parts
      .filter(([value]) => value > 0)
      .map(([value, unit]) => `${value}${unit}`)
      .join('') || '0s'
  );
}
