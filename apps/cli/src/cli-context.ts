import { clientRows, connect, createPool, databaseName, QueryRows } from '@app/db/light';
import type { Admin, Producer } from 'kafkajs';
import os from 'node:os';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { kafkaConnectError, postgresConnectError } from './cli-errors';
import { CliEnv } from './config/cli.env';

/** Few retries for the CLI's Kafka clients: an operator hears within seconds that the brokers do not answer. */
const KAFKA_RETRY = { retries: 2, initialRetryTime: 300 };

/** What a command needs, each made on first use and closed at the end: most commands touch only one of them. */
export class CliContext {
  private dataSource?: DataSource;
  private pool?: Pool;
  private admin?: Admin;
  private producer?: Producer;

  constructor(
    readonly env: CliEnv,
    readonly out: (text: string) => void,
    /** Notes for the operator (stderr), kept apart from the output that scripts read: the default database used. */
    private readonly note: (text: string) => void = () => undefined,
    /** True when DATABASE_URL was not set and the local default is used. */
    private readonly defaultDatabase = false,
    /** Asks the operator a yes/no question (a terminal); absent when there is nobody to ask. */
    private readonly asker?: (question: string) => Promise<boolean>,
  ) {}

  /** Whether a question can be put to the operator. */
  get canAsk(): boolean {
    return this.asker !== undefined;
  }

  ask(question: string): Promise<boolean> {
    return this.asker ? this.asker(question) : Promise.resolve(false);
  }

  /**
   * Statements on a plain pg pool, for commands that only read: without TypeORM, which takes a quarter of a second to
   * load. The first call connects, so that a database that does not answer is named at once.
   */
  async rows(): Promise<QueryRows> {
    if (!this.pool) {
      this.noteDefaultDatabase();
      const pool = createPool({ url: this.env.DATABASE_URL, applicationName: 'hookrail-cli', poolSize: 2 }, () => {});
      this.pool = pool;
      const client = await pool.connect().catch((error: unknown) => {
        throw postgresConnectError(error, this.env.DATABASE_URL);
      });
      client.release();
    }
    return clientRows(this.pool);
  }

  async database(): Promise<DataSource> {
    if (!this.dataSource) {
      this.noteDefaultDatabase();
      // The entities (and with them TypeORM) load here, not with this file: commands that only read never load them.
      const { CLI_ENTITIES } = await import('./cli.entities');
      this.dataSource = await connect({
        url: this.env.DATABASE_URL,
        applicationName: 'hookrail-cli',
        poolSize: 2,
        entities: CLI_ENTITIES,
      }).catch((error: unknown) => {
        throw postgresConnectError(error, this.env.DATABASE_URL);
      });
    }
    return this.dataSource;
  }

  async kafkaAdmin(): Promise<Admin> {
    if (!this.admin) {
      // kafkajs loads here, not with this file: commands that only reach the database never load it.
      const { createKafka } = await import('@app/kafka');
      const admin = createKafka('hookrail-cli', this.env, undefined, { retry: KAFKA_RETRY }).admin();
      await admin.connect().catch((error: unknown) => {
        throw kafkaConnectError(error, this.env);
      });
      this.admin = admin;
    }
    return this.admin;
  }

  async kafkaProducer(): Promise<Producer> {
    if (!this.producer) {
      const [{ createKafka }, { Partitioners }] = await Promise.all([import('@app/kafka'), import('kafkajs')]);
      const producer = createKafka('hookrail-cli', this.env, undefined, { retry: KAFKA_RETRY }).producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await producer.connect().catch((error: unknown) => {
        throw kafkaConnectError(error, this.env);
      });
      this.producer = producer;
    }
    return this.producer;
  }

  private noted = false;

  /** Says once which database is used when DATABASE_URL is not set. */
  private noteDefaultDatabase(): void {
    if (!this.defaultDatabase || this.noted) return;
    this.noted = true;
    const url = new URL(this.env.DATABASE_URL);
    const where = `${databaseName(this.env.DATABASE_URL)} on ${url.hostname}:${url.port || 5432}`;
    this.note(`hookrail: database ${where} (DATABASE_URL is not set: the default of npm start)`);
  }

  /** Who the operator is in the audit: `--as`, else HOOKRAIL_OPERATOR, else the login name; `cli:` before it. */
  actor(as?: string): string {
    return `cli:${as ?? this.env.HOOKRAIL_OPERATOR ?? os.userInfo().username}`;
  }

  namespaced(name: string): string {
    return `${this.env.KAFKA_NAMESPACE}${name}`;
  }

  async close(): Promise<void> {
    await this.producer?.disconnect();
    await this.admin?.disconnect();
    await this.dataSource?.destroy();
    await this.pool?.end();
  }
}
