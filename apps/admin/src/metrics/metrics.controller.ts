import { Controller, Get, Header } from '@nestjs/common';
import { AdminMetrics } from './admin.metrics';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: AdminMetrics) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
