import { Closable } from '@app/config';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import {
  AppProcess,
  committedOffsets,
  createTestDatabase,
  deleteTopics,
  TestDatabase,
  testKafka,
  uniqueName,
} from '@app/testing';
import { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { loadConsumersConfig } from '../config/load-consumers-config';
import { startConsumers } from '../consumers.app';

/** What every consumers test file owns: a database of its own and a Kafka namespace, for one consumer group. */
export class ConsumersTestBed {
  readonly kafka: Kafka;
  readonly namespace: string;
  /** The orders topic in this namespace. */
  readonly topic: string;

  private constructor(
    name: string,
    readonly group: string,
    readonly database: TestDatabase,
    readonly dataSource: DataSource,
  ) {
    this.kafka = testKafka(`${name}-test`);
    this.namespace = `${uniqueName(name)}.`;
    this.topic = `${this.namespace}shop.orders`;
  }

  static async start(name: string, group: string): Promise<ConsumersTestBed> {
    const database = await createTestDatabase();
    const dataSource = await connect({ url: database.url, applicationName: `${name}-test`, poolSize: 2 });
    return new ConsumersTestBed(name, group, database, dataSource);
  }

  /** The consumers app inside the test process, on one partition, without a metrics port; `env` adds or overrides. */
  startConsumers(env: Record<string, string> = {}): Promise<Closable> {
    const config = loadConsumersConfig({
      DATABASE_URL: this.database.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      CONSUMER_GROUPS: this.group,
      KAFKA_NAMESPACE: this.namespace,
      METRICS_PORT: '0',
      KAFKA_CREATE_TOPICS: 'true',
      TOPIC_PARTITIONS: '1',
      ...env,
    });
    return startConsumers(config, createLogger('consumers', 'silent'));
  }

  /**
   * The environment of a consumers app process, on one partition, with a short session so that a killed process's
   * partition moves soon. No dead-letter store, so SIGTERM finds the shutdown handler right after 'consumers started'.
   */
  processEnv(env: Record<string, string>): Record<string, string> {
    return {
      DATABASE_URL: this.database.url,
      CONSUMER_GROUPS: this.group,
      DEAD_LETTER_STORE: 'false',
      KAFKA_NAMESPACE: this.namespace,
      TOPIC_PARTITIONS: '1',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      ...env,
    };
  }

  /** The partitions of the orders topic a consumers process holds now, from its latest "partitions assigned" line. */
  partitionsHeldBy(child: AppProcess): number[] {
    const lines = child.logLines().filter((line) => line.msg === 'partitions assigned' && line.group === this.group);
    const assignment = lines.at(-1)?.assignment as Record<string, number[]> | undefined;
    return assignment?.[this.topic] ?? [];
  }

  /** The group's committed offsets on the orders topic, summed over its partitions (nothing committed counts 0). */
  async committed(): Promise<number> {
    return (await committedOffsets(this.kafka, `${this.namespace}${this.group}`, this.topic)).reduce(
      (sum, offset) => sum + Math.max(offset, 0),
      0,
    );
  }

  async stop(): Promise<void> {
    await this.dataSource.destroy();
    await this.database.drop();
    await deleteTopics([this.topic, `${this.namespace}${this.group}.dlt`, `${this.namespace}${this.group}.replay`]);
  }
}
