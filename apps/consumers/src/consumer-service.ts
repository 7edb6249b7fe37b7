import { Concurrency, KeyOrder } from '@app/consumer-runtime';
import type { EntityClass } from '@app/db';
import { Type } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ConsumersEnv } from './config/consumers.env';

/** The team that answers for a group's dead letters and alerts. */
export interface GroupOwner {
  team: string;
  /** Where to reach them: an address, a channel, a rota. */
  contact: string;
}

/**
 * A consumer service, everything the app needs to run it: its group name, the topics it consumes, the Nest module
 * holding its handlers, its owner, its configuration class and its tables, and how it works through its partitions.
 */
export interface ConsumerService<E extends object = object> {
  group: string;
  topics: readonly string[];
  /** When set, the topics come from the configuration instead (e.g. the webhooks group's OUTBOUND_WEBHOOKS_TOPICS). */
  topicsFrom?(config: ConsumersEnv & E): readonly string[];
  module: Type<unknown>;
  owner: GroupOwner;
  /**
   * The group's own variables, validated at boot with the shared ones (one error line for all); its providers read
   * them through `ConsumerServiceDeps<E>.config`. Decorate a variable needed only where the group runs with
   * WhenGroupRuns.
   */
  env?: new () => E;
  /** The TypeORM entities of the group's own tables (their migrations are in libs/db). */
  entities?: readonly EntityClass[];
  /**
   * The group's finished rows that the `history-retention` job deletes past HISTORY_RETENTION_DAYS, by table: each
   * deletes up to `limit` rows finished before `cutoff` and says how many.
   */
  history?: Readonly<Record<string, (manager: EntityManager, cutoff: Date, limit: number) => Promise<number>>>;
  /** How long a message waiting on a down dependency is retried before it is dead-lettered (CONSUMER_RETRY_CEILING_MS). */
  retryCeilingMs?: number;
  /**
   * Most events per transaction for this group, below CONSUMER_BATCH_SIZE: a group whose handlers call a provider
   * and reply through the outbox publishes its replies only when the transaction commits, so a long batch only
   * delays them.
   */
  maxBatchSize?: number;
  /**
   * `park`: when an event is dead-lettered, the group holds back the later events of its key (parked behind the dead
   * letter) until it is resolved or purged, then applies them in order; other keys and the partition go on. For
   * groups whose effect depends on the order of a key's events (a ledger, a state machine). Default `none`.
   */
  keyOrder?: KeyOrder;
  /**
   * `key`: records of different keys of a partition run at the same time (CONSUMER_KEY_CONCURRENCY, up to
   * CONSUMER_MAX_IN_FLIGHT per process), each key in offset order, and a key waiting for a retry holds only itself;
   * the handlers run before the transaction and write through `ctx.write`. For groups that wait on a provider.
   * Default `batch`: one record at a time per partition, runs of records in one transaction.
   */
  concurrency?: Concurrency;
}
