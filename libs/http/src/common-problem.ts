import { DatabaseUnavailableError, isDatabaseUnavailable } from '@app/db';
import { HttpException } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { Problem } from './problem';

/** Seconds a caller should wait before retrying when Postgres or Kafka is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const retryLater = { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) };

/**
 * Any error as the Problem both HTTP apps answer: client mistakes are 4xx; an unmigrated database or Postgres down are
 * 503 with Retry-After; only our own failures are 500 (logged with their stack).
 */
export function commonProblem(exception: unknown, request: FastifyRequest, logger: Logger): Problem {
  if (exception instanceof Problem) return exception;
  const route = request.routeOptions.url;
  if (
    (exception as { code?: string; driverError?: { code?: string } })?.driverError?.code === '42P01' ||
    (exception as { code?: string })?.code === '42P01'
  ) {
    // undefined_table: the database was never migrated (or is behind this build).
    logger.error(
      { err: (exception as Error).message, route },
      'a table is missing: the database is not migrated; run npm run db:migrate',
    );
    return new Problem(
      503,
      'not_migrated',
      'the event store is not migrated (an operator runs npm run db:migrate); nothing was recorded, retry later',
      {},
      retryLater,
    );
  }
  if (exception instanceof DatabaseUnavailableError || isDatabaseUnavailable(exception)) {
    logger.warn({ err: (exception as Error).message, route }, 'database unavailable; answering 503');
    return new Problem(
      503,
      'database_unavailable',
      'the event store is unavailable; nothing was recorded, retry later',
      {},
      retryLater,
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
  logger.error({ err: exception instanceof Error ? exception.stack : String(exception), route }, 'unexpected error');
  return new Problem(500, 'internal_error', 'an unexpected error occurred; nothing was recorded');
}

/** Errors Fastify raises before a route runs (body too large, bad content length, ...). */
export function fromFastify(status: number, code: string | undefined, message: string): Problem {
  if (status === 413) return new Problem(413, 'payload_too_large', `the body is larger than the limit (${message})`);
  if (status === 415) return new Problem(415, 'unsupported_media_type', message);
  return new Problem(status, (code ?? 'bad_request').toLowerCase().replace(/^fst_err_/, ''), message);
}

/** Sends a Problem as `{error, message, ...details}` with its status and headers. */
export function sendProblem(reply: FastifyReply, problem: Problem): void {
  void reply
    .status(problem.status)
    .headers({ 'content-type': 'application/json; charset=utf-8', ...problem.headers })
    .send(JSON.stringify({ error: problem.code, message: problem.message, ...problem.details }));
}
