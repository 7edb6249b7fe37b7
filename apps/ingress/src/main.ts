import 'reflect-metadata';
import { bootstrap, closeOnSignals } from '@app/config';
import { checkDatabase, describeDatabase } from '@app/db';
import { LOGGER, Logger } from '@app/logger';
import { loadIngressConfig } from './config/load-ingress-config';
import { createIngressApp } from './ingress.app';

bootstrap('ingress', async () => {
  const config = loadIngressConfig();
  // A stop during start-up waits for the start to end, then stops the ingress gracefully.
  let logger: Logger | undefined;
  const starting = (async () => {
    const app = await createIngressApp(config);
    logger = app.get<Logger>(LOGGER);
    await app.listen(config.PORT, '0.0.0.0');
    return app;
  })();
  closeOnSignals({ close: async () => (await starting).close() }, (message) =>
    logger ? logger.info(message) : process.stderr.write(`ingress: ${message}\n`),
  );
  const app = await starting;
  app.get<Logger>(LOGGER).info({ port: config.PORT }, 'ingress started');
  // An unmigrated database: say so at once (and /readyz answers 503 until it is migrated).
  void checkDatabase(config.DATABASE_URL).catch((error: Error) =>
    app.get<Logger>(LOGGER).warn({ err: error.message }, `not ready: ${describeDatabase(config.DATABASE_URL)}`),
  );
});
