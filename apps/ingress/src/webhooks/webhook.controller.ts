import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedBody } from '../events/accepted-body';
import { annotateRequest } from '@app/http';
import { IngressMetrics } from '../metrics/ingress.metrics';
import { AcceptWebhookUseCase } from './usecases/accept-webhook/accept-webhook.usecase';

@Controller('webhooks')
export class WebhookController {
  constructor(
    private readonly acceptWebhook: AcceptWebhookUseCase,
    private readonly metrics: IngressMetrics,
  ) {}

  /** 202 when committed now, 200 for a duplicate of a committed delivery. */
  @Post(':source')
  @HttpCode(202)
  async receive(
    @Param('source') sourceName: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    annotateRequest(request, { source: sourceName.slice(0, 100) });
    const result = await this.acceptWebhook.execute({
      sourceName,
      contentType: request.headers['content-type'],
      headers: request.headers,
      rawBody: (request.body as Buffer | undefined) ?? Buffer.alloc(0),
    });
    annotateRequest(request, { eventId: result.id, outcome: result.duplicate ? 'duplicate' : 'accepted' });
    this.metrics.recorded(result.source, result.duplicate);
    if (result.duplicate) reply.status(200);
    return acceptedBody(result);
  }
}
