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

/**
 * The app's one TypeORM DataSource. An app starts even while Postgres is down (it answers 503 and /readyz says
 * why) and connects on the first call that finds it up again.
 */
@Injectable()
export class Database implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly dataSource: DataSource;
  private connecting?: Promise<DataSource>;

  constructor(
    @Inject(SETTINGS) settings: DataSourceSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.dataSource = newDataSource(settings);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.connection().catch((error: Error) =>
      this.logger.warn({ err: error.message }, 'database not reachable at start; will retry per request'),
    );
  }

  /** The initialized DataSource, or DatabaseUnavailableError. */
  async connection(): Promise<DataSource> {
    if (this.dataSource.isInitialized) return this.dataSource;
    this.connecting ??= this.dataSource.initialize().finally(() => (this.connecting = undefined));
    try {
      return await this.connecting;
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
