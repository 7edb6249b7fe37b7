import { Concurrency, ConsumerMetrics, ConsumerRuntime, KeyOrder, PermanentError } from '@app/consumer-runtime';
import { CloudEvent, dltTopic, replayTopic, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { DeadLetterStore, ParkedKeyMetrics, replayDeadLetters } from '@app/dead-letters';
import { ensureTopics } from '@app/kafka';
import { createLogger } from '@app/logger';
import { Producer } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';
import { createTestTopic, deleteTopics, endOffset, produce, testKafka, uniqueName } from './test-kafka';
import { waitFor } from './wait-for';

export interface ParkingScenarioOptions {
  keyOrder?: KeyOrder;
  /** Start the dead-letter store with the group (default true); `startStore()` starts it later. */
  store?: boolean;
  unparkResendMs?: number;
  /** How the group works through its partition (default `batch`). */
  concurrency?: Concurrency;
}

interface Effect {
  group: string;
  eventId: string;
  key: string | undefined;
}

/** The scenario's effect, queued with `ctx.write` (so it runs in either mode). */
async function insertEffects(manager: EntityManager, rows: Effect[]): Promise<void> {
  await manager.query(
    `INSERT INTO parking_effects ("group", event_id, key) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`,
    [rows.map((row) => row.group), rows.map((row) => row.eventId), rows.map((row) => row.key ?? null)],
  );
}

/**
 * One consumer group on the real runtime, on a topic of one partition, that records every event it applies in
 * `parking_effects` (queued with `ctx.write`, written in the runtime's transaction) and rejects with a PermanentError the events listed in
 * `rejected` (dead-lettered at once) until they are taken off the list. Parks keys unless told otherwise; the
 * dead-letter store indexes its DLT.
 */
export class ParkingScenario {
  readonly kafka = testKafka('parking-test');
  /** Event ids the handler rejects. */
  readonly rejected = new Set<string>();
  readonly metrics = new ConsumerMetrics();
  readonly group = uniqueName('parking');
  readonly dltTopic = dltTopic(this.group);
  readonly replayTopic = replayTopic(this.group);
  private runtime?: ConsumerRuntime;
  private store?: DeadLetterStore;
  private producer?: Producer;

  private constructor(
    readonly dataSource: DataSource,
    readonly topic: string,
  ) {}

  static async start(dataSource: DataSource, options: ParkingScenarioOptions = {}): Promise<ParkingScenario> {
    await dataSource.query(
      `CREATE TABLE IF NOT EXISTS parking_effects (id serial PRIMARY KEY, "group" text, event_id text, key text)`,
    );
    const scenario = new ParkingScenario(dataSource, await createTestTopic('parking-in'));
    new ParkedKeyMetrics(scenario.metrics.registry, async () => dataSource, [scenario.group]);
    await ensureTopics(scenario.kafka, [
      { topic: scenario.dltTopic, numPartitions: 1 },
      { topic: scenario.replayTopic, numPartitions: 1 },
    ]);
    scenario.runtime = new ConsumerRuntime({
      group: scenario.group,
      topics: [scenario.topic],
      handlers: [
        {
          type: SHOP_ORDER_PLACED_V1,
          handler: async (event, ctx) => {
            if (scenario.rejected.has(event.id)) throw new PermanentError(`rejected ${event.id} of ${event.subject}`);
            ctx.write(insertEffects, { group: ctx.group, eventId: event.id, key: event.subject });
          },
        },
      ],
      kafka: scenario.kafka,
      dataSource,
      logger: createLogger(scenario.group, 'silent'),
      metrics: scenario.metrics,
      keyOrder: options.keyOrder ?? 'park',
      unparkResendMs: options.unparkResendMs,
      concurrency: options.concurrency,
    });
    await scenario.runtime.start();
    if (options.store ?? true) await scenario.startStore();
    return scenario;
  }

  async startStore(): Promise<void> {
    this.store = new DeadLetterStore({
      kafka: this.kafka,
      dataSource: this.dataSource,
      logger: createLogger('dlq-store', 'silent'),
      groupId: uniqueName('parking-store'),
      sources: [{ group: this.group, dltTopic: this.dltTopic, replayTopic: this.replayTopic }],
      resolveEveryMs: 200,
    });
    await this.store.start();
  }

  publish(events: CloudEvent[]): Promise<void> {
    return produce(this.kafka, this.topic, events);
  }

  /** The event ids the group applied, in the order it applied them; of one key when given. */
  async effects(key?: string): Promise<string[]> {
    const rows: Array<{ event_id: string }> = await this.dataSource.query(
      `SELECT event_id FROM parking_effects WHERE "group" = $1 AND ($2::text IS NULL OR key = $2) ORDER BY id`,
      [this.group, key ?? null],
    );
    return rows.map((row) => row.event_id);
  }

  /** The group's `dead_letters` row of an event, once it exists (and `where` holds). */
  deadLetterOf(eventId: string, where: (row: ParkedRow) => boolean = () => true): Promise<ParkedRow> {
    return waitFor(
      async () => {
        const [row] = await this.rows(`event_id = $2`, [eventId]);
        return row && where(row) ? row : undefined;
      },
      { what: `the dead_letters row of ${eventId}` },
    );
  }

  /** The group's `dead_letters` rows of a key, in queue order (parked ones by `park_seq`). */
  rowsOfKey(key: string): Promise<ParkedRow[]> {
    return this.rows(`key = $2`, [key]);
  }

  /** How many dead letters the group has produced to its DLT. */
  deadLettersProduced(): Promise<number> {
    return endOffset(this.kafka, this.dltTopic);
  }

  /** The key's `parked_keys` row, if it is parked. */
  async parkedKey(key: string): Promise<{ head_dead_letter_id: string; head_event_id: string } | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT head_dead_letter_id, head_event_id FROM parked_keys WHERE "group" = $1 AND key = $2`,
      [this.group, key],
    );
    return row;
  }

  /** Replays dead letters the way `hookrail dlq replay` does. */
  async replay(ids: string[]): Promise<string[]> {
    if (!this.producer) {
      this.producer = this.kafka.producer();
      await this.producer.connect();
    }
    const result = await replayDeadLetters(this.dataSource, async () => this.producer!, {
      filter: { ids },
      actor: 'test:ops',
    });
    return result.replayed;
  }

  async stop(): Promise<void> {
    await this.producer?.disconnect();
    await this.store?.stop();
    await this.runtime?.stop();
    await deleteTopics([this.topic, this.dltTopic, this.replayTopic]).catch(() => undefined);
  }

  private rows(where: string, params: unknown[]): Promise<ParkedRow[]> {
    return this.dataSource.query(
      `SELECT id, event_id, key, status, replay_count, park_seq, blocked_by, error_class
         FROM dead_letters WHERE "group" = $1 AND ${where} ORDER BY park_seq NULLS FIRST, dead_at, id`,
      [this.group, ...params],
    );
  }
}

export interface ParkedRow {
  id: string;
  event_id: string;
  key: string;
  status: string;
  replay_count: number;
  park_seq: string | null;
  blocked_by: string | null;
  error_class: string;
}
