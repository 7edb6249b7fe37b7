import { isPoolWaitTimeout, StatementOutcomeUnknownError } from '@app/db';
import { annotateRequest, commonProblem, DATABASE_RETRY_AFTER_SECONDS, Problem, sendProblem } from '@app/http';
import { LOGGER } from '@app/logger';
import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { CLOUDEVENTS_SOURCE, UNKNOWN_SOURCE } from '@app/rejections';
import { IngressMetrics } from '../metrics/ingress.metrics';
import { GroupCommitWriter } from '../events/group-commit.writer';
import { OVERLOAD_RETRY_AFTER_SECONDS, OverloadedError } from '../events/overload';
import { rejectedDelivery } from '../rejections/rejected-delivery';
import { RejectionLog } from '../rejections/rejection-log';
import { SourceRegistry } from '../sources/source-registry';

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
    sendProblem(reply, problem);
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
    return commonProblem(exception, request, this.logger);
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
