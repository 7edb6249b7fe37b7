import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig } from '@app/config';
import { createLogger, NestLogger } from '@app/logger';
import { NestFactory } from '@nestjs/core';
import { ConsumersEnv } from './config/consumers.env';
import { ConsumersModule } from './consumers.module';

bootstrap('consumers', async () => {
  const config = loadConfig(ConsumersEnv);
  const logger = createLogger('consumers', config.LOG_LEVEL);
  const app = await NestFactory.createApplicationContext(ConsumersModule.forRoot(config, logger), { logger: new NestLogger(logger) });
  await app.init();
  logger.info({ groups: config.CONSUMER_GROUPS }, 'consumers started');
  closeOnSignals(app, (message) => logger.info(message));
});
