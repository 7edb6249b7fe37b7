import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from '../config/relay.env';
import { RelayMetrics } from '../metrics/relay.metrics';
import { DrainLoop } from './drain-loop';

/** Runs the relay's drain loops (RELAY_LOOPS); SIGTERM stops them after their batch, giving back every lane. */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loops: DrainLoop[];

  constructor(config: RelayEnv, metrics: RelayMetrics, @Inject(LOGGER) logger: Logger) {
    this.loops = Array.from(
      { length: config.RELAY_LOOPS },
      (_, index) => new DrainLoop(config, metrics, logger, String(index)),
    );
  }

  onApplicationBootstrap(): void {
    for (const loop of this.loops) loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }
}
