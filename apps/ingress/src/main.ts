import 'reflect-metadata';
import { bootstrap, closeOnSignals, ConfigError, loadConfig } from '@app/config';
import { checkDatabase, describeDatabase } from '@app/db';
import { LOGGER, Logger } from '@app/logger';
import { startTracing, TracingEnv } from '@app/tracing';
import { loadIngressConfig } from './config/load-ingress-config';
import { createIngressApp } from './ingress.app';

const LISTEN_BACKLOG = 4_096;

bootstrap('ingress', async () => {
  const config = loadIngressConfig();
  const tracing = startTracing('ingress', loadConfig(TracingEnv));
  // A stop during start-up waits for the start to end, then stops the ingress gracefully.
  let logger: Logger | undefined;
  const starting = (async () => {
    const app = await createIngressApp(config);
    logger = app.get<Logger>(LOGGER);
    // A burst of new connections waits in the kernel's accept queue, not in SYN retransmits of a second and more:
    // Node's default of 511 drops the rest of 2,000 senders connecting at once (Linux caps it at somaxconn).
    await app.listen({ port: config.PORT, host: '0.0.0.0', backlog: LISTEN_BACKLOG });
    return app;
  })();
  closeOnSignals(
    {
      close: async () => {
        await (await starting).close();
        await tracing.shutdown();
      },
    },
    (message) => (logger ? logger.info(message) : process.stderr.write(`ingress: ${message}\n`)),
    (done) => (logger ? logger.flush(() => done()) : done()),
  );
  const app = await starting;
  app.get<Logger>(LOGGER).info({ port: config.PORT }, 'ingress started');
  // An unmigrated database: say so at once (and /readyz answers 503 until it is migrated). A refusal that waiting
  // cannot mend (a wrong password, an untrusted certificate) stops the ingress with its one line.
  void checkDatabase(config.DATABASE_URL).catch(async (error: Error) => {
    if (!(error instanceof ConfigError))
      return app
        .get<Logger>(LOGGER)
        .warn({ err: error.message }, `not ready: ${describeDatabase(config.DATABASE_URL)}`);
    process.stderr.write(`ingress: ${error.message}\n`);
    await app.close().catch(() => undefined);
    process.exit(1);
  });
});
