import { ConsumerGroupOwnersRepository, ConsumerLagReader } from '@app/consumer-runtime/light';
import { CliContext } from '../cli-context';
import { summarizeLag } from '../output/lag-summary';
import { formatTable } from '../output/table';

/**
 * `hookrail lag`: per consumer group and topic one line (the lag of all partitions, the worst partition and its lag);
 * with `--partitions` (and always with `--json`) per group, topic and partition, every partition counted (one the group never committed on
 * from the start of its log); the project's groups, those a consumers process registered and the dead-letter store
 * by default; with how each group works through its partitions (`batch`, or `key`: records of different keys at
 * once), as its process registered it (`–` when the database does not answer or the group never started).
 */
export async function lagCommand(
  ctx: CliContext,
  options: { json: boolean; groups: string[]; partitions: boolean },
): Promise<void> {
  const reader = new ConsumerLagReader({
    admin: () => ctx.kafkaAdmin(),
    database: () => ctx.rows(),
    namespace: ctx.env.KAFKA_NAMESPACE,
  });
  const [lag, owners] = await Promise.all([
    reader.measure(options.groups.map((group) => ctx.namespaced(group))),
    ctx
      .rows()
      .then((rows) => new ConsumerGroupOwnersRepository(rows).list())
      .catch(() => []),
  ]);
  const concurrency = new Map(owners.map((owner) => [ctx.namespaced(owner.group), owner.concurrency]));
  const rows = lag.map((row) => ({ ...row, worksBy: concurrency.get(row.groupId) ?? '–' }));
  if (options.json) ctx.out(JSON.stringify(rows, null, 2));
  else if (options.partitions)
    ctx.out(formatTable(rows, ['groupId', 'worksBy', 'topic', 'partition', 'committed', 'end', 'lag']));
  else
    ctx.out(
      formatTable(summarizeLag(rows), [
        'groupId',
        'worksBy',
        'topic',
        'partitions',
        'lag',
        'worstPartition',
        'worstLag',
      ]),
    );
}
