import { measureAndLogRequests } from '@app/http';
import { createLogger, NestLogger } from '@app/logger';
import { ssrfExceptions, ssrfPolicyOf } from '@app/webhooks';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AdminAppModule } from './admin-app.module';
import { EventCatalog } from './catalog/event-catalog';
import { AdminEnv } from './config/admin.env';
import { rawBodyAdapter } from './http/raw-body-adapter';
import { AdminMetrics } from './metrics/admin.metrics';
import { readSourceSummaries } from './sources/source-summaries';

/** Request bodies of the operator API are small JSON objects. */
const ADMIN_BODY_LIMIT = 256 * 1024;

/** Builds the operator plane's HTTP app (not yet listening); main.ts and the tests both start it through here. */
export async function createAdminApp(config: AdminEnv): Promise<NestFastifyApplication> {
  const logger = createLogger('admin', config.LOG_LEVEL, config.LOG_FORMAT);
  const requestLogger = createLogger('admin', config.LOG_LEVEL, config.LOG_FORMAT, { redact: false });
  const exceptions = ssrfExceptions(ssrfPolicyOf(config));
  if (exceptions) logger.warn(exceptions, 'outbound webhooks: exceptions to the SSRF rules are configured');
  const catalog = EventCatalog.of(config);
  if (!catalog.loaded) logger.warn({ directory: config.CATALOG_DIR }, 'no event catalogue; /catalog answers 404');
  // maxParamLength: an event's trail is looked up by ids of up to 300 characters (GET /admin/events/:ref).
  const adapter = rawBodyAdapter(ADMIN_BODY_LIMIT, 320);
  const fastify = adapter.getInstance();
  const app = await NestFactory.create<NestFastifyApplication>(
    AdminAppModule.forRoot(config, logger, readSourceSummaries(config.HOOKRAIL_SOURCES), catalog),
    adapter,
    { logger: new NestLogger(logger), bodyParser: false },
  );
  const metrics = app.get(AdminMetrics);
  measureAndLogRequests(fastify, metrics, requestLogger);
  return app;
}
