import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig, waitForDependencies } from '@app/config';
import { checkDatabase, describeDatabase } from '@app/db';
import { checkKafka, describeKafka } from '@app/kafka';
import { createLogger, NestLogger } from '@app/logger';
import { startTracing, TracingEnv } from '@app/tracing';
import { NestFactory } from '@nestjs/core';
import { RelayEnv } from './config/relay.env';
import { RelayModule } from './relay.module';

bootstrap('relay', async () => {
  const config = loadConfig(RelayEnv);
  const tracing = startTracing('relay', loadConfig(TracingEnv));
  const logger = createLogger('relay', config.LOG_LEVEL, config.LOG_FORMAT);
  // An unreachable or unmigrated database, brokers that do not answer: one line every few seconds naming what it
  // waits for and its variable, until it is ready, then one line saying so (the relay publishes nothing meanwhile).
  const early = (signal: NodeJS.Signals) => {
    logger.info(`${signal} received while waiting for the database or Kafka; stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', early).on('SIGINT', early);
  await waitForDependencies(
    [
      { name: describeDatabase(config.DATABASE_URL), check: () => checkDatabase(config.DATABASE_URL) },
      { name: describeKafka(config), check: () => checkKafka(config) },
    ],
    logger,
  );
  process.off('SIGTERM', early).off('SIGINT', early);
  // From here a stop waits for the start to end, then stops the relay gracefully.
  const starting = (async () => {
    const app = await NestFactory.createApplicationContext(RelayModule.forRoot(config, logger), {
      logger: new NestLogger(logger),
    });
    await app.init();
    return app;
  })();
  closeOnSignals(
    {
      close: async () => {
        await (await starting).close();
        await tracing.shutdown();
      },
    },
    (message) => logger.info(message),
  );
  await starting;
  logger.info({ brokers: config.KAFKA_BROKERS }, 'relay started');
});
