import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig } from '@app/config';
import { createLogger, NestLogger } from '@app/logger';
import { NestFactory } from '@nestjs/core';
import { RelayEnv } from './config/relay.env';
import { RelayModule } from './relay.module';

bootstrap('relay', async () => {
  const config = loadConfig(RelayEnv);
  const logger = createLogger('relay', config.LOG_LEVEL, config.LOG_FORMAT);
  const app = await NestFactory.createApplicationContext(RelayModule.forRoot(config, logger), {
    logger: new NestLogger(logger),
  });
  await app.init();
  logger.info({ brokers: config.KAFKA_BROKERS }, 'relay started');
  closeOnSignals(app, (message) => logger.info(message));
});
