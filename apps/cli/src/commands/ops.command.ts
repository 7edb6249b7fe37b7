import { CONSUMER_GROUPS } from '@app/contracts';
import { DEAD_LETTER_STORE_GROUP } from '@app/dead-letters';
import { findConsumerLag } from '@app/kafka';
import { managerRows, OutboxRepository } from '@app/outbox';
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

/** `hookrail lag`: per consumer group, topic and partition; the project's groups and the dead-letter store by default. */
export async function lagCommand(ctx: CliContext, options: { json: boolean; groups: string[] }): Promise<void> {
  const groups = options.groups.length ? options.groups : [...CONSUMER_GROUPS, DEAD_LETTER_STORE_GROUP];
  const lag = await findConsumerLag(
    await ctx.kafkaAdmin(),
    groups.map((group) => ctx.namespaced(group)),
  );
  ctx.out(
    options.json
      ? JSON.stringify(lag, null, 2)
      : formatTable(lag, ['groupId', 'topic', 'partition', 'committed', 'end', 'lag']),
  );
}
