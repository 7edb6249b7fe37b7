import {
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  isPoolWaitTimeout,
  StatementOutcomeUnknownError,
} from '@app/db';
import { isKafkaUnavailable, KafkaUnavailableError } from '@app/kafka';
import { LOGGER } from '@app/logger';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { CLOUDEVENTS_SOURCE, UNKNOWN_SOURCE } from '@app/rejections';
import { IngressMetrics } from '../metrics/ingress.metrics';
import { GroupCommitWriter } from '../events/group-commit.writer';
import { OVERLOAD_RETRY_AFTER_SECONDS, OverloadedError } from '../events/overload';
import { rejectedDelivery } from '../rejections/rejected-delivery';
import { RejectionLog } from '../rejections/rejection-log';
import { SourceRegistry } from '../sources/source-registry';
import { Problem } from './problem';
import { annotateRequest } from './request-log';

/** Seconds a sender should wait before retrying when Postgres is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Renders every error as `{error, message, ...}`. Client mistakes are 4xx; only our own failures are 5xx. A delivery
 * it rejects (`POST /webhooks/:source`, `POST /events`) is counted by source and reason and kept for operators.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: IngressMetrics,
    private readonly writer: GroupCommitWriter,
    private readonly sources: SourceRegistry,
    private readonly rejections: RejectionLog,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = this.toProblem(exception, request);
    annotateRequest(request, { outcome: problem.code });
    const source = this.deliverySource(request);
    if (source !== undefined) {
      this.metrics.rejected(source, problem.reason);
      // Only what the sender got wrong is kept: a 503 (overload, an outage) must not add writes to a struggling store.
      if (problem.status < 500)
        this.rejections.record(rejectedDelivery(request, problem, source, this.rejections.settings.bodyPrefixChars));
    }
    void reply
      .status(problem.status)
      .headers({ 'content-type': 'application/json; charset=utf-8', ...problem.headers })
      .send(JSON.stringify({ error: problem.code, message: problem.message, ...problem.details }));
  }

  /**
   * Whose delivery a request was: its configured source, `unknown` for a name no source has (so that a scan of names
   * adds no label values), `cloudevents` for `POST /events`; undefined for any other route.
   */
  private deliverySource(request: FastifyRequest): string | undefined {
    const route = request.routeOptions.url;
    if (route === '/events' && request.method === 'POST') return CLOUDEVENTS_SOURCE;
    if (route !== '/webhooks/:source') return undefined;
    const name = (request.params as { source?: string } | undefined)?.source;
    return name && this.sources.find(name) ? name : UNKNOWN_SOURCE;
  }

  private toProblem(exception: unknown, request: FastifyRequest): Problem {
    if (exception instanceof Problem) return exception;
    if (exception instanceof StatementOutcomeUnknownError) {
      this.logger.warn(
        { err: exception.message, route: request.routeOptions.url },
        'connection to the database lost during the write; its outcome is unknown; answering 503',
      );
      return new Problem(
        503,
        'write_outcome_unknown',
        'the connection to the event store broke while the event was being written, so it may have been recorded; ' +
          'retry with the same event id: a duplicate answer (200) then says it was',
        {},
        { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      );
    }
    if (exception instanceof OverloadedError) return overloaded(exception);
    // No connection came free in time, while Postgres committed for this ingress a moment ago: our own queue.
    if (isPoolWaitTimeout(exception) && this.writer.committedRecently())
      return overloaded(new OverloadedError('pool_timeout'));
    if (
      (exception as { code?: string; driverError?: { code?: string } })?.driverError?.code === '42P01' ||
      (exception as { code?: string })?.code === '42P01'
    ) {
      // undefined_table: the database was never migrated (or is behind this build).
      this.logger.error(
        { err: (exception as Error).message, route: request.routeOptions.url },
        'a table is missing: the database is not migrated; run npm run db:migrate',
      );
      return new Problem(
        503,
        'not_migrated',
        'the event store is not migrated (an operator runs npm run db:migrate); nothing was recorded, retry later',
        {},
        { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      );
    }
    if (isKafkaUnavailable(exception)) {
      // Before the database's check: a refused connection to a broker is no database outage.
      const message = (exception as Error).message;
      this.logger.warn({ err: message, route: request.routeOptions.url }, 'Kafka unavailable; answering 503');
      return new Problem(
        503,
        'kafka_unavailable',
        exception instanceof KafkaUnavailableError
          ? `${message}; retry later`
          : `Kafka does not answer (the ingress's KAFKA_BROKERS): ${message}; retry later`,
        {},
        { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      );
    }
    if (exception instanceof DatabaseUnavailableError || isDatabaseUnavailable(exception)) {
      this.logger.warn(
        { err: (exception as Error).message, route: request.routeOptions.url },
        'database unavailable; answering 503',
      );
      return new Problem(
        503,
        'database_unavailable',
        'the event store is unavailable; nothing was recorded, retry later',
        {},
        {
          'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
        },
      );
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404)
        return new Problem(404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`);
      return fromFastify(status, undefined, exception.message);
    }
    const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
    if (fastifyError?.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return fromFastify(fastifyError.statusCode, fastifyError.code, fastifyError.message ?? 'bad request');
    }
    this.logger.error(
      { err: exception instanceof Error ? exception.stack : String(exception), route: request.routeOptions.url },
      'unexpected error',
    );
    return new Problem(500, 'internal_error', 'an unexpected error occurred; nothing was recorded');
  }
}

/**
 * `503 overloaded`: the ingress will not take the delivery now (its reason in `reason`). Nothing was recorded, unless
 * `mayBeRecorded`: its statement was running when its time ran out, and a retry may be answered `200 duplicate`.
 */
export function overloaded(error: OverloadedError): Problem {
  const message = error.mayBeRecorded
    ? 'the event could not be committed in time; it may still be recorded: retry with the same event id (a 200 ' +
      'duplicate then says it was)'
    : 'the ingress is over its capacity right now; nothing was recorded, retry after the Retry-After seconds';
  return new Problem(
    503,
    'overloaded',
    message,
    { reason: error.reason, ...(error.mayBeRecorded && { mayBeRecorded: true }) },
    { 'retry-after': String(OVERLOAD_RETRY_AFTER_SECONDS) },
  );
}

/** Errors Fastify raises before a route runs (body too large, bad content length, ...). */
export function fromFastify(status: number, code: string | undefined, message: string): Problem {
  if (status === 413) return new Problem(413, 'payload_too_large', `the body is larger than the limit (${message})`);
  if (status === 415) return new Problem(415, 'unsupported_media_type', message);
  return new Problem(status, (code ?? 'bad_request').toLowerCase().replace(/^fst_err_/, ''), message);
}
