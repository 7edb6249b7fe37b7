import { Controller, Get, Header } from '@nestjs/common';
import { IngressMetrics } from './ingress.metrics';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: IngressMetrics) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  metricsText(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
