import { createLogger, NestLogger } from '@app/logger';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { IngressEnv } from './config/ingress.env';
import { IngressModule } from './ingress.module';

/** Builds the ingress HTTP app (not yet listening); main.ts and the tests both start it through here. */
export async function createIngressApp(config: IngressEnv): Promise<NestFastifyApplication> {
  const logger = createLogger('ingress', config.LOG_LEVEL);
  const app = await NestFactory.create<NestFastifyApplication>(IngressModule.forRoot(config, logger), new FastifyAdapter(), {
    logger: new NestLogger(logger),
  });
  return app;
}
