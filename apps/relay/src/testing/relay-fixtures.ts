import { CloudEvent } from '@app/contracts';
import { connect } from '@app/db';
import { addToOutbox, laneOf, notifyOutbox, OutboxNotifier } from '@app/outbox';
import {
  AppProcess,
  cleanEnv,
  createTestDatabase,
  createTestTopic,
  deleteTopics,
  ReadMessage,
  TEST_BROKERS,
  TestDatabase,
  TopicReader,
} from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

/** Test fixtures of the relay's integration tests: events with a per-aggregate sequence number, relay processes. */

export const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

export function sequencedEvent(
  aggregate: string,
  seq: number,
  data: Record<string, unknown> = {},
): CloudEvent<Record<string, unknown>> {
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: '/tests/relay',
    type: 'test.sequenced.v1',
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: aggregate,
    traceparent: TRACEPARENT,
    data: { aggregate, seq, ...data },
  };
}

/** `count` events round-robin over `aggregates` aggregates: event i is number floor(i / aggregates) of its aggregate. */
export function interleavedEvents(
  aggregates: number,
  count: number,
  prefix = 'order',
): CloudEvent<Record<string, unknown>>[] {
  return Array.from({ length: count }, (_, i) =>
    sequencedEvent(`${prefix}-${i % aggregates}`, Math.floor(i / aggregates)),
  );
}

/**
 * Inserts through the real outbox writer, `perTransaction` events per transaction, from `writers` concurrent
 * connections. Each aggregate has one writer, which inserts its events in order: the commit order of an aggregate
 * is its order in `events`.
 */
export async function insertEvents(
  dataSource: DataSource,
  topic: string,
  events: CloudEvent[],
  { perTransaction = 100, writers = 4 } = {},
): Promise<void> {
  const notifier = new OutboxNotifier((lanes) => notifyOutbox(dataSource, lanes));
  const shares: CloudEvent[][] = Array.from({ length: writers }, () => []);
  for (const event of events) shares[laneOf(event.subject ?? event.id) % writers].push(event);
  await Promise.all(
    shares.map(async (share) => {
      for (let start = 0; start < share.length; start += perTransaction) {
        await dataSource.transaction(async (manager) => {
          for (const event of share.slice(start, start + perTransaction)) await addToOutbox(manager, topic, event);
        });
        notifier.committed();
      }
    }),
  );
}

/** What every relay test file owns: a database of its own, a connection to it, a topic and a reader of that topic. */
export class RelayTestBed {
  private constructor(
    readonly database: TestDatabase,
    readonly dataSource: DataSource,
    readonly topic: string,
    readonly reader: TopicReader,
  ) {}

  static async start(topicPrefix: string, partitions: number): Promise<RelayTestBed> {
    const database = await createTestDatabase();
    const dataSource = await connect({ url: database.url, applicationName: 'hookrail-relay-test', poolSize: 5 });
    const topic = await createTestTopic(topicPrefix, partitions);
    return new RelayTestBed(database, dataSource, topic, await TopicReader.start(topic));
  }

  async stop(): Promise<void> {
    await this.reader.stop();
    await this.dataSource.destroy();
    await deleteTopics([this.topic]);
    await this.database.drop();
  }
}

export function startRelay(databaseUrl: string, env: Record<string, string> = {}): AppProcess {
  return AppProcess.start(
    'relay',
    cleanEnv({ DATABASE_URL: databaseUrl, KAFKA_BROKERS: TEST_BROKERS.join(','), METRICS_PORT: '0', ...env }),
  );
}

export async function publishedCount(dataSource: DataSource): Promise<number> {
  const [row] = await dataSource.query(`SELECT count(*)::int AS count FROM outbox WHERE published_at IS NOT NULL`);
  return row.count;
}

export interface OrderReport {
  /** Messages per aggregate, in arrival order, as sequence numbers. */
  byAggregate: Map<string, number[]>;
  duplicates: number;
}

/** Groups received messages by key (the aggregate id) and counts messages whose event id (hookrail's) arrived before. */
export function orderReport(messages: ReadMessage[]): OrderReport {
  const byAggregate = new Map<string, number[]>();
  const seen = new Set<string>();
  let duplicates = 0;
  for (const message of messages) {
    const eventId = message.headers.ce_hookrailid ?? message.headers.ce_id;
    if (seen.has(eventId)) duplicates += 1;
    seen.add(eventId);
    const { seq } = JSON.parse(message.value ?? '{}') as { seq: number };
    const key = message.key ?? '';
    byAggregate.set(key, [...(byAggregate.get(key) ?? []), seq]);
  }
  return { byAggregate, duplicates };
}

/** The first arrival of each sequence number, in arrival order: what a consumer that dedupes on event id applies. */
export function firstArrivals(sequence: number[]): number[] {
  const seen = new Set<number>();
  return sequence.filter((seq) => !seen.has(seq) && seen.add(seq));
}

export const range = (count: number): number[] => Array.from({ length: count }, (_, i) => i);

/** Lanes a relay process owns now, according to its logs (the last rebalance of each of its drain loops). */
export function lanesOwnedBy(relay: AppProcess): number {
  const owned = new Map<unknown, number>();
  for (const line of relay.logLines()) if (line.msg === 'lanes rebalanced') owned.set(line.loop, Number(line.owned));
  return [...owned.values()].reduce((sum, lanes) => sum + lanes, 0);
}

/** A relay boots in about a second; on a busy 2-core machine compiling TypeScript on the fly can take far longer. */
export const RELAY_START_TIMEOUT_MS = 60_000;

export async function relaysStarted(relays: AppProcess[]): Promise<void> {
  await Promise.all(relays.map((relay) => relay.waitForLog('relay started', RELAY_START_TIMEOUT_MS)));
}
