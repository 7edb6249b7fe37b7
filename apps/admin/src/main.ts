import 'reflect-metadata';
import { bootstrap, closeOnSignals, ConfigError, loadConfig } from '@app/config';
import { checkDatabase, describeDatabase } from '@app/db';
import { LOGGER, Logger } from '@app/logger';
import { createAdminApp } from './admin.app';
import { AdminEnv } from './config/admin.env';
import { createPortalApp } from './portal/portal.app';

bootstrap('admin', async () => {
  const config = loadConfig(AdminEnv);
  let logger: Logger | undefined;
  // Two listeners: the operator plane, and the customer API (/customer/v1) apart from it.
  const starting = (async () => {
    const [app, portal] = await Promise.all([createAdminApp(config), createPortalApp(config)]);
    logger = app.get<Logger>(LOGGER);
    await app.listen({ port: config.ADMIN_PORT, host: config.ADMIN_HOST });
    await portal.listen({ port: config.PORTAL_PORT, host: config.PORTAL_HOST });
    return { app, portal };
  })();
  closeOnSignals(
    {
      close: async () => {
        const { app, portal } = await starting;
        await Promise.all([app.close(), portal.close()]);
      },
    },
    (message) => (logger ? logger.info(message) : process.stderr.write(`admin: ${message}\n`)),
    (done) => (logger ? logger.flush(() => done()) : done()),
  );
  const { app, portal } = await starting;
  app.get<Logger>(LOGGER).info(
    {
      host: config.ADMIN_HOST,
      port: config.ADMIN_PORT,
      portalHost: config.PORTAL_HOST,
      portalPort: config.PORTAL_PORT,
    },
    'admin started',
  );
  // An unmigrated database: say so at once (and /readyz answers 503 until it is migrated). A refusal that waiting
  // cannot mend (a wrong password, an untrusted certificate) stops the app with its one line.
  void checkDatabase(config.DATABASE_URL).catch(async (error: Error) => {
    if (!(error instanceof ConfigError))
      return app
        .get<Logger>(LOGGER)
        .warn({ err: error.message }, `not ready: ${describeDatabase(config.DATABASE_URL)}`);
    process.stderr.write(`admin: ${error.message}\n`);
    await Promise.all([app.close(), portal.close()]).catch(() => undefined);
    process.exit(1);
  });
});
