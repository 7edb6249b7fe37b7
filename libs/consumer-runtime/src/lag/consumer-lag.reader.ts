import { CONSUMER_GROUPS, DEAD_LETTER_STORE_GROUP, dltTopic, replayTopic } from '@app/contracts/light';
import { QueryRows } from '@app/db/light';
import type { LagTarget, PartitionLag } from '@app/kafka';
import { Admin } from 'kafkajs';
import { ConsumerGroupOwnersRepository } from '../owners/consumer-group-owners.repository';

export interface GroupPartitionLag extends PartitionLag {
  /** The group's name: its id without the namespace. */
  group: string;
}

export interface ConsumerLagReaderOptions {
  admin: () => Promise<Admin>;
  /** Statements on the database where groups register (consumer_group_owners). */
  database: () => Promise<QueryRows>;
  /** KAFKA_NAMESPACE, as the consumers were started with. */
  namespace: string;
  /** Kafka did not answer within this long: `every()` says the lag is unknown for now (default 3 s). */
  timeoutMs?: number;
  /** Several readers within this long (a scrape's gauges, the chart sampler) share one measurement (default 2 s). */
  cacheMs?: number;
  /** Hears why a measurement failed. */
  onError?: (error: unknown) => void;
}

/**
 * The one source of consumer lag, for the metrics of every app that can reach Kafka, `hookrail lag`, `/admin` and the
 * console: committed offsets against each partition's start and end through the Kafka admin API, outside the groups,
 * so a stopped or crash-looping group still shows its lag. The groups: the project's, every group a consumers process
 * registered, and the dead-letter store; each with the topics its process declared and its replay topic, so that a
 * partition the group never committed on counts from the start of its log.
 */
export class ConsumerLagReader {
  private cached?: { at: number; value: Promise<GroupPartitionLag[] | undefined> };

  constructor(private readonly options: ConsumerLagReaderOptions) {}

  /** Every group's lag, shared for `cacheMs`; undefined while Kafka does not answer. */
  every(): Promise<GroupPartitionLag[] | undefined> {
    if (!this.cached || Date.now() - this.cached.at > (this.options.cacheMs ?? 2000)) {
      this.cached = { at: Date.now(), value: this.withTimeout(this.measure()) };
    }
    return this.cached.value;
  }

  /** The lag of the groups named by id (as given, namespace included), or of every group; throws what Kafka throws. */
  async measure(groupIds?: readonly string[]): Promise<GroupPartitionLag[]> {
    const declared = await this.declaredTopics();
    const targets: LagTarget[] = (groupIds?.length ? groupIds : [...declared.keys()]).map((groupId) => ({
      groupId,
      topics: declared.get(groupId) ?? [],
    }));
    // kafkajs loads when lag is first measured, not with the light entry: the CLI's dead-letter commands never need it.
    const { findConsumerLag } = await import('@app/kafka');
    const rows = await findConsumerLag(await this.options.admin(), targets);
    const { namespace } = this.options;
    return rows.map((row) => ({
      ...row,
      group: namespace && row.groupId.startsWith(namespace) ? row.groupId.slice(namespace.length) : row.groupId,
    }));
  }

  /**
   * Group id → the topics its process declared with its replay topic; none for a group no process has registered (its
   * lag is unknown until it runs or commits) or while the database does not answer.
   */
  private async declaredTopics(): Promise<Map<string, string[]>> {
    const owners = await this.options
      .database()
      .then((rows) => new ConsumerGroupOwnersRepository(rows).list())
      .catch(() => []);
    const namespaced = (name: string) => `${this.options.namespace}${name}`;
    const groups = [...new Set([...CONSUMER_GROUPS, ...owners.map((owner) => owner.group)])];
    const declared = new Map(
      groups.map((group) => {
        const owner = owners.find((candidate) => candidate.group === group);
        return [namespaced(group), owner ? [...owner.topics, replayTopic(group)].map(namespaced) : []];
      }),
    );
    declared.set(
      namespaced(DEAD_LETTER_STORE_GROUP),
      groups.map((group) => namespaced(dltTopic(group))),
    );
    return declared;
  }

  private async withTimeout(measured: Promise<GroupPartitionLag[]>): Promise<GroupPartitionLag[] | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.options.timeoutMs ?? 3000);
    });
    try {
      return await Promise.race([measured, timeout]);
    } catch (error) {
      this.options.onError?.(error);
      return undefined;
    } finally {
      clearTimeout(timer);
      measured.catch(() => undefined);
    }
  }
}

/** Lag per group (by name), summed over its topics and partitions. */
export function lagByGroup(rows: readonly GroupPartitionLag[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.group, (totals.get(row.group) ?? 0) + row.lag);
  return totals;
}
