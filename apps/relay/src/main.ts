import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig, waitForDependencies } from '@app/config';
import { checkDatabase, describeDatabase } from '@app/db';
import { createLogger, NestLogger } from '@app/logger';
import { NestFactory } from '@nestjs/core';
import { RelayEnv } from './config/relay.env';
import { RelayModule } from './relay.module';

bootstrap('relay', async () => {
  const config = loadConfig(RelayEnv);
  const logger = createLogger('relay', config.LOG_LEVEL, config.LOG_FORMAT);
  // An unreachable or unmigrated database: one line every few seconds saying so, until it is ready.
  const early = (signal: NodeJS.Signals) => {
    logger.info(`${signal} received while waiting for the database; stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', early).on('SIGINT', early);
  await waitForDependencies(
    [{ name: describeDatabase(config.DATABASE_URL), check: () => checkDatabase(config.DATABASE_URL) }],
    logger,
  );
  process.off('SIGTERM', early).off('SIGINT', early);
  const app = await NestFactory.createApplicationContext(RelayModule.forRoot(config, logger), {
    logger: new NestLogger(logger),
  });
  await app.init();
  logger.info({ brokers: config.KAFKA_BROKERS }, 'relay started');
  closeOnSignals(app, (message) => logger.info(message));
});
