import { clientRows, connect, createPool, databaseName, QueryRows } from '@app/db';
import { createKafka } from '@app/kafka';
import { Admin, Partitioners, Producer } from 'kafkajs';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { CLI_ENTITIES } from './cli.entities';
import { CliEnv } from './config/cli.env';

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
   * load.
   */
  async rows(): Promise<QueryRows> {
    if (!this.pool) {
      this.noteDefaultDatabase();
      this.pool = createPool({ url: this.env.DATABASE_URL, applicationName: 'hookrail-cli', poolSize: 2 }, () => {});
    }
    return clientRows(this.pool);
  }

  async database(): Promise<DataSource> {
    if (!this.dataSource) {
      this.noteDefaultDatabase();
      this.dataSource = await connect({
        url: this.env.DATABASE_URL,
        applicationName: 'hookrail-cli',
        poolSize: 2,
        entities: CLI_ENTITIES,
      });
    }
    return this.dataSource;
  }

  async kafkaAdmin(): Promise<Admin> {
    if (!this.admin) {
      this.admin = createKafka('hookrail-cli', this.env.KAFKA_BROKERS).admin();
      await this.admin.connect();
    }
    return this.admin;
  }

  async kafkaProducer(): Promise<Producer> {
    if (!this.producer) {
      this.producer = createKafka('hookrail-cli', this.env.KAFKA_BROKERS).producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await this.producer.connect();
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

export class UsageError extends Error {
  override name = 'UsageError';
}
