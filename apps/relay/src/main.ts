import 'reflect-metadata';
import { bootstrap, closeOnSignals, Dependency, loadConfig, waitForDependencies } from '@app/config';
import { checkDatabase, describeDatabase } from '@app/db';
import { checkKafka, describeKafka } from '@app/kafka';
import { createLogger, NestLogger } from '@app/logger';
import { startTracing, TracingEnv } from '@app/tracing';
import { NestFactory } from '@nestjs/core';
import { RelayEnv } from './config/relay.env';
import { DependencyProbe } from './metrics/dependency.probe';
import { MetricsServer, serveMetrics } from './metrics/metrics.server';
import { RelayMetrics } from './metrics/relay.metrics';
import { RelayModule } from './relay.module';

bootstrap('relay', async () => {
  const config = loadConfig(RelayEnv);
  const tracing = startTracing('relay', loadConfig(TracingEnv));
  const logger = createLogger('relay', config.LOG_LEVEL, config.LOG_FORMAT);
  const dependencies: Dependency[] = [
    { name: describeDatabase(config.DATABASE_URL), label: 'postgres', check: () => checkDatabase(config.DATABASE_URL) },
    { name: describeKafka(config), label: 'kafka', check: () => checkKafka(config) },
  ];
  // /metrics, /healthz and /readyz answer from the start: while it waits, /readyz says for what (503) and the
  // dependency gauge says which one does not answer.
  const metrics = new RelayMetrics();
  const probe = new DependencyProbe(metrics.dependencyUp, 'relay', dependencies);
  let waitingFor: string | undefined = 'its dependencies';
  const server = new MetricsServer(metrics.registry, () => waitingFor);
  await serveMetrics(server, config, logger);
  // An unreachable or unmigrated database, brokers that do not answer: one line every few seconds naming what it
  // waits for and its variable, until it is ready, then one line saying so (the relay publishes nothing meanwhile).
  const early = (signal: NodeJS.Signals) => {
    logger.info(`${signal} received while waiting for the database or Kafka; stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', early).on('SIGINT', early);
  await waitForDependencies(
    dependencies.map((dependency) => ({
      ...dependency,
      check: () => ((waitingFor = dependency.name), dependency.check()),
    })),
    logger,
    { onCheck: probe.record },
  );
  process.off('SIGTERM', early).off('SIGINT', early);
  waitingFor = 'its drain loops to start';
  // From here a stop waits for the start to end, then stops the relay gracefully.
  const starting = (async () => {
    const app = await NestFactory.createApplicationContext(RelayModule.forRoot(config, logger, metrics), {
      logger: new NestLogger(logger),
    });
    await app.init();
    return app;
  })();
  closeOnSignals(
    {
      close: async () => {
        await probe.stop();
        await (await starting).close();
        await server.close();
        await tracing.shutdown();
      },
    },
    (message) => logger.info(message),
    (done) => logger.flush(() => done()),
  );
  await starting;
  probe.start();
  waitingFor = undefined;
  logger.info({ brokers: config.KAFKA_BROKERS }, 'relay started');
});
