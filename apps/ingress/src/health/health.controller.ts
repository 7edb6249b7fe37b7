import { Database } from '@app/db';
import { Controller, Get } from '@nestjs/common';
import { Problem } from '../http/problem';

@Controller()
export class HealthController {
  constructor(private readonly database: Database) {}

  /** Liveness: the process serves HTTP. Says nothing about Postgres or Kafka (that is /readyz). */
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: Postgres answers, so a delivery can be committed, and the pool holds its connections (opened two at a
   * time at start, rather than twenty at once by the first burst).
   */
  @Get('readyz')
  async readyz(): Promise<{ status: 'ready' }> {
    try {
      await (await this.database.connection()).query('SELECT 1');
      await this.database.ensureWarm();
      return { status: 'ready' };
    } catch (error) {
      throw new Problem(
        503,
        'not_ready',
        `database unreachable: ${(error as Error).message}`,
        {},
        { 'retry-after': '5' },
      );
    }
  }
}
