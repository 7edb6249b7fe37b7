import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { LOGGER } from '@app/logger';
import { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { DataSourceSettings, newDataSource } from './data-source';

/** Postgres could not be reached; requests answer 503 and the next call tries to connect again. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  constructor(cause: unknown) {
    super(`database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

const SETTINGS = Symbol('DATA_SOURCE_SETTINGS');

/** What warming needs of the DataSource's pg pool. */
interface WarmablePool {
  totalCount: number;
  connect(): Promise<{ release(): void }>;
}

/**
 * The app's one TypeORM DataSource. An app starts even while Postgres is down (it answers 503 and /readyz says
 * why) and connects on the first call that finds it up again.
 */
@Injectable()
export class Database implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly dataSource: DataSource;
  private connecting?: Promise<DataSource>;
  private warming?: Promise<void>;
  /** The pool holds its `minPoolSize` connections (true at once when it keeps none). */
  warm: boolean;

  constructor(
    @Inject(SETTINGS) private readonly settings: DataSourceSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.dataSource = newDataSource(settings);
    this.warm = !settings.minPoolSize;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.connection().catch((error: Error) =>
      this.logger.warn({ err: error.message }, 'database not reachable at start; will retry per request'),
    );
  }

  /**
   * Opens the pool's `minPoolSize` connections, two at a time, once the DataSource is up: a pool that grows on demand
   * opens a connection per waiting request, and a burst on a cold app opened twenty at once, which a busy Postgres
   * answered after the connect timeout. Nothing to do when the pool keeps none, or it is warm already.
   */
  ensureWarm(): Promise<void> {
    if (this.warm) return Promise.resolve();
    this.warming ??= this.openConnections().finally(() => (this.warming = undefined));
    return this.warming;
  }

  private async openConnections(): Promise<void> {
    const pool = (this.dataSource.driver as unknown as { master: WarmablePool }).master;
    const wanted = this.settings.minPoolSize ?? 0;
    const held: Array<{ release(): void }> = [];
    try {
      while (pool.totalCount < wanted) {
        const opening = Math.min(2, wanted - pool.totalCount);
        held.push(...(await Promise.all(Array.from({ length: opening }, () => pool.connect()))));
      }
      this.warm = true;
      this.logger.info({ connections: pool.totalCount }, 'database pool warm');
    } finally {
      held.forEach((client) => client.release());
    }
  }

  /** The initialized DataSource, or DatabaseUnavailableError. */
  async connection(): Promise<DataSource> {
    if (this.dataSource.isInitialized) return this.dataSource;
    this.connecting ??= this.dataSource.initialize().finally(() => (this.connecting = undefined));
    try {
      const dataSource = await this.connecting;
      void this.ensureWarm().catch((error: Error) =>
        this.logger.warn({ err: error.message }, 'could not open the pool’s connections; will try again'),
      );
      return dataSource;
    } catch (error) {
      throw new DatabaseUnavailableError(error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(settings: DataSourceSettings): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: SETTINGS, useValue: settings }, Database],
      exports: [Database],
    };
  }
}
