import 'reflect-metadata';
import { bootstrap, closeOnSignals } from '@app/config';
import { checkDatabase, describeDatabase } from '@app/db';
import { LOGGER, Logger } from '@app/logger';
import { loadIngressConfig } from './config/load-ingress-config';
import { createIngressApp } from './ingress.app';

bootstrap('ingress', async () => {
  const config = loadIngressConfig();
  const app = await createIngressApp(config);
  await app.listen(config.PORT, '0.0.0.0');
  const logger = app.get<Logger>(LOGGER);
  logger.info({ port: config.PORT }, 'ingress started');
  // An unmigrated database: say so at once (and /readyz answers 503 until it is migrated).
  void checkDatabase(config.DATABASE_URL).catch((error: Error) =>
    logger.warn({ err: error.message }, `not ready: ${describeDatabase(config.DATABASE_URL)}`),
  );
  closeOnSignals(app, (message) => logger.info(message));
});
