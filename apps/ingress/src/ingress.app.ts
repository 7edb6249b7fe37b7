import { createLogger, NestLogger } from '@app/logger';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { IngressEnv } from './config/ingress.env';
import { GroupCommitWriter } from './events/group-commit.writer';
import { OverloadedError } from './events/overload';
import { overloaded } from './http/problem.filter';
import { annotateRequest, measureAndLogRequests } from '@app/http';
import { IngressModule } from './ingress.module';
import { IngressMetrics } from './metrics/ingress.metrics';
import { loadSources } from './sources/sources.loader';
import { SourceRegistry } from './sources/source-registry';

/** Builds the ingress HTTP app (not yet listening); main.ts and the tests both start it through here. */
export async function createIngressApp(config: IngressEnv): Promise<NestFastifyApplication> {
  const logger = createLogger('ingress', config.LOG_LEVEL, config.LOG_FORMAT);
  // The request line's fields are fixed (method, route pattern, status, latency, source, event id, outcome): no
  // secret can be among them, so it skips the redaction every other line goes through.
  const requestLogger = createLogger('ingress', config.LOG_LEVEL, config.LOG_FORMAT, { redact: false });
  const sources = new SourceRegistry(loadSources(config.HOOKRAIL_SOURCES));
  // No Nest middleware in this app, so no middleware runner on every request either (skipMiddie).
  // maxParamLength: an event's status is looked up by ids of up to 300 characters (GET /events/:id).
  const adapter = new FastifyAdapter({
    bodyLimit: config.MAX_BODY_BYTES,
    logger: false,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 320 },
    skipMiddie: true,
  });
  const fastify = adapter.getInstance();
  // Signatures are checked on the exact bytes received: every body stays a Buffer; use cases parse it after.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: config.MAX_BODY_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  const app = await NestFactory.create<NestFastifyApplication>(
    IngressModule.forRoot(config, logger, sources),
    adapter,
    {
      logger: new NestLogger(logger),
      bodyParser: false,
    },
  );
  if (config.EVENT_STATUS_ACCESS === 'public')
    logger.warn('EVENT_STATUS_ACCESS=public: anyone with an event id reads its full status, without a token');
  const metrics = app.get(IngressMetrics);
  // Admission: a delivery the ingress could not commit in time is shed before its body is read or its signature
  // checked (Envoy's overload manager: a fast 503, never an unbounded queue).
  const writer = app.get(GroupCommitWriter);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'POST' || !isDeliveryRoute(request.routeOptions.url)) return done();
    const reason = writer.admit(true);
    if (!reason) return done();
    writer.shed(reason);
    const problem = overloaded(new OverloadedError(reason));
    annotateRequest(request, { outcome: problem.code });
    void reply
      .status(problem.status)
      .headers({ 'content-type': 'application/json; charset=utf-8', ...problem.headers })
      .send(JSON.stringify({ error: problem.code, message: problem.message, ...problem.details }));
  });
  measureAndLogRequests(fastify, metrics, requestLogger);
  return app;
}

/** The routes that take deliveries: webhooks and CloudEvents. */
function isDeliveryRoute(route: string | undefined): boolean {
  return route === '/events' || (route?.startsWith('/webhooks/') ?? false);
}
