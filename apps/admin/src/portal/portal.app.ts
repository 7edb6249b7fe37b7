import { logRequest } from '@app/http';
import { createLogger, NestLogger } from '@app/logger';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventCatalog } from '../catalog/event-catalog';
import { AdminEnv } from '../config/admin.env';
import { rawBodyAdapter } from '../http/raw-body-adapter';
import { PortalAppModule } from './portal-app.module';

/** Request bodies of the customer API are small JSON objects. */
const PORTAL_BODY_LIMIT = 64 * 1024;

/** Builds the customer API's HTTP app (not yet listening); main.ts and the tests both start it through here. */
export async function createPortalApp(config: AdminEnv): Promise<NestFastifyApplication> {
  const logger = createLogger('portal', config.LOG_LEVEL, config.LOG_FORMAT);
  const requestLogger = createLogger('portal', config.LOG_LEVEL, config.LOG_FORMAT, { redact: false });
  const adapter = rawBodyAdapter(PORTAL_BODY_LIMIT);
  const app = await NestFactory.create<NestFastifyApplication>(
    PortalAppModule.forRoot(config, logger, EventCatalog.of(config)),
    adapter,
    { logger: new NestLogger(logger), bodyParser: false },
  );
  adapter.getInstance().addHook('onResponse', (request, reply, done) => {
    logRequest(requestLogger, request, reply, request.routeOptions.url ?? 'unmatched');
    done();
  });
  return app;
}
