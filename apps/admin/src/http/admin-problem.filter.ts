import { annotateRequest, commonProblem, Problem, retryLater, sendProblem } from '@app/http';
import { isKafkaUnavailable, KafkaUnavailableError } from '@app/kafka';
import { LOGGER } from '@app/logger';
import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';

/**
 * Renders every error of the operator plane as `{error, message, ...}`: a caller's mistake is a 4xx naming it; Kafka
 * (lag, replays) or Postgres down is a 503 with Retry-After.
 */
@Catch()
export class AdminProblemFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const problem = this.toProblem(exception, request);
    annotateRequest(request, { outcome: problem.code });
    sendProblem(http.getResponse<FastifyReply>(), problem);
  }

  private toProblem(exception: unknown, request: FastifyRequest): Problem {
    // Before the database's check: a refused connection to a broker is no database outage.
    if (!(exception instanceof Problem) && isKafkaUnavailable(exception)) {
      const message = (exception as Error).message;
      this.logger.warn({ err: message, route: request.routeOptions.url }, 'Kafka unavailable; answering 503');
      return new Problem(
        503,
        'kafka_unavailable',
        exception instanceof KafkaUnavailableError
          ? `${message}; retry later`
          : `Kafka does not answer (the admin app's KAFKA_BROKERS): ${message}; retry later`,
        {},
        retryLater,
      );
    }
    return commonProblem(exception, request, this.logger);
  }
}
