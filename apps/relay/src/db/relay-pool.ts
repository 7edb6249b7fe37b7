import { createPool } from '@app/db';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { Logger } from 'pino';
import { RelayEnv } from '../config/relay.env';

/**
 * The relay's pg pool, for its retention job and its metrics (each drain loop holds a connection of its own). The
 * relay runs without TypeORM: it writes hand-written SQL only, and leaving TypeORM unloaded keeps it under its
 * memory budget (docs/benchmarks.md, Memory). It connects on first use, so the relay starts while Postgres is down.
 */
@Injectable()
export class RelayPool implements OnApplicationShutdown {
  readonly pool: Pool;

  constructor(config: RelayEnv, @Inject(LOGGER) logger: Logger) {
    this.pool = createPool({ url: config.DATABASE_URL, applicationName: 'hookrail-relay', poolSize: 4 }, (error) =>
      logger.warn({ err: error.message }, 'an idle database connection broke; the pool opens a new one when needed'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
