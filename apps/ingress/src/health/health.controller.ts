import { Controller, Get } from '@nestjs/common';

@Controller()
export class HealthController {
  /** Liveness: the process serves HTTP. Says nothing about Postgres or Kafka (that is /readyz). */
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
