import { Database, describeMissingMigrations, managerRows, schemaStatus, SchemaStatus } from '@app/db';
import { Controller, Get } from '@nestjs/common';
import { Problem } from './problem';

@Controller()
export class HealthController {
  constructor(private readonly database: Database) {}

  /** Liveness: the process serves HTTP. Says nothing about Postgres or Kafka (that is /readyz). */
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: Postgres answers with every migration of this build, so a delivery can be committed, and the pool holds
   * its connections (opened two at a
   * time at start, rather than twenty at once by the first burst).
   */
  @Get('readyz')
  async readyz(): Promise<{ status: 'ready' }> {
    let status: SchemaStatus;
    try {
      status = await schemaStatus(managerRows((await this.database.connection()).manager));
      await this.database.ensureWarm();
    } catch (error) {
      throw new Problem(
        503,
        'not_ready',
        `database unreachable: ${(error as Error).message}`,
        {},
        { 'retry-after': '5' },
      );
    }
    if (!status.migrated) {
      throw new Problem(503, 'not_ready', describeMissingMigrations(status), {}, { 'retry-after': '5' });
    }
    return { status: 'ready' };
  }
}
