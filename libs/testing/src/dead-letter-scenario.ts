import { ConsumerMetrics, ConsumerRuntime, Handler, PermanentError } from '@app/consumer-runtime';
import { CloudEvent, dltTopic, replayTopic, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { ensureTopics } from '@app/kafka';
import { createLogger } from '@app/logger';
import { DeadLetterStore, DeadLetterTopics } from '@app/dead-letters';
import { DataSource } from 'typeorm';
import {
  committedOffsets,
  createTestTopic,
  deleteTopics,
  endOffset,
  produce,
  testKafka,
  uniqueName,
} from './test-kafka';
import { waitFor } from './wait-for';

/**
 * Two consumer groups on one topic, on the real consumer runtime: `healthy` applies every event; `failing` throws a
 * PermanentError (dead-lettered at once) until `fixed` is set. Plus the dead-letter store over both groups' DLTs.
 * Each group records its effect in `test_effects`, in the runtime's transaction.
 */
export class DeadLetterScenario {
  readonly kafka = testKafka('dead-letter-test');
  fixed = false;
  readonly calls = new Map<string, number>();
  private readonly runtimes: ConsumerRuntime[] = [];
  private store?: DeadLetterStore;
  readonly storeGroupId = uniqueName('dlq-store');

  private constructor(
    readonly dataSource: DataSource,
    readonly inputTopic: string,
    readonly failing: DeadLetterTopics,
    readonly healthy: DeadLetterTopics,
  ) {}

  static async start(dataSource: DataSource): Promise<DeadLetterScenario> {
    await dataSource.query(
      `CREATE TABLE IF NOT EXISTS test_effects (id serial PRIMARY KEY, "group" text, event_id text)`,
    );
    const inputTopic = await createTestTopic('dlq-in');
    const topicsOf = (group: string): DeadLetterTopics => ({
      group,
      dltTopic: dltTopic(group),
      replayTopic: replayTopic(group),
    });
    const scenario = new DeadLetterScenario(
      dataSource,
      inputTopic,
      topicsOf(uniqueName('dlq-failing')),
      topicsOf(uniqueName('dlq-healthy')),
    );
    const groups = [scenario.failing, scenario.healthy];
    await ensureTopics(
      scenario.kafka,
      groups.flatMap((group) => [group.dltTopic, group.replayTopic]).map((topic) => ({ topic, numPartitions: 1 })),
    );
    await Promise.all([
      scenario.startGroup(scenario.failing, async (event, ctx) => {
        if (!scenario.fixed) throw new PermanentError(`no ledger account for ${event.subject}`);
        await ctx.manager.query(`INSERT INTO test_effects ("group", event_id) VALUES ($1, $2)`, [ctx.group, event.id]);
      }),
      scenario.startGroup(scenario.healthy, async (event, ctx) => {
        await ctx.manager.query(`INSERT INTO test_effects ("group", event_id) VALUES ($1, $2)`, [ctx.group, event.id]);
      }),
    ]);
    scenario.store = new DeadLetterStore({
      kafka: scenario.kafka,
      dataSource,
      logger: createLogger('dlq-store', 'silent'),
      groupId: scenario.storeGroupId,
      sources: groups,
      resolveEveryMs: 200,
    });
    await scenario.store.start();
    return scenario;
  }

  private async startGroup(topics: DeadLetterTopics, handler: Handler): Promise<void> {
    const counted: Handler = async (event, ctx) => {
      this.calls.set(topics.group, (this.calls.get(topics.group) ?? 0) + 1);
      await handler(event, ctx);
    };
    const runtime = new ConsumerRuntime({
      ...topics,
      topics: [this.inputTopic],
      handlers: [{ type: SHOP_ORDER_PLACED_V1, handler: counted }],
      kafka: this.kafka,
      dataSource: this.dataSource,
      logger: createLogger(topics.group, 'silent'),
      metrics: new ConsumerMetrics(),
    });
    this.runtimes.push(runtime);
    await runtime.start();
  }

  publish(events: CloudEvent[]): Promise<void> {
    return produce(this.kafka, this.inputTopic, events);
  }

  async effects(group: string): Promise<string[]> {
    const rows: Array<{ event_id: string }> = await this.dataSource.query(
      `SELECT event_id FROM test_effects WHERE "group" = $1 ORDER BY id`,
      [group],
    );
    return rows.map((row) => row.event_id);
  }

  /** The dead_letters row of `eventId` in the failing group, once the store has indexed it. */
  async deadLetterOf(eventId: string, where: (row: DeadLetterRow) => boolean = () => true): Promise<DeadLetterRow> {
    return waitFor(
      async () => {
        const rows: DeadLetterRow[] = await this.dataSource.query(
          `SELECT id, status, replay_count, error_class, key FROM dead_letters WHERE event_id = $1`,
          [eventId],
        );
        return rows.length === 1 && where(rows[0]) ? rows[0] : undefined;
      },
      { what: `the dead letter of ${eventId}` },
    );
  }

  /** How many messages of the failing group's DLT the store has committed. */
  async storeCommitted(): Promise<number> {
    return Math.max(0, (await committedOffsets(this.kafka, this.storeGroupId, this.failing.dltTopic))[0] ?? 0);
  }

  /** End offset of a topic's partition 0 (what has ever been produced to it). */
  endOffset(topic: string): Promise<number> {
    return endOffset(this.kafka, topic);
  }

  async stop(): Promise<void> {
    await this.store?.stop();
    await Promise.all(this.runtimes.map((runtime) => runtime.stop()));
    const groups = [this.failing, this.healthy];
    await deleteTopics([this.inputTopic, ...groups.flatMap((group) => [group.dltTopic, group.replayTopic])]).catch(
      () => undefined,
    );
  }
}

export interface DeadLetterRow {
  id: string;
  status: string;
  replay_count: number;
  error_class: string;
  key: string;
}
