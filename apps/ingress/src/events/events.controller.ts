import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { annotateRequest } from '../http/request-log';
import { IngressMetrics } from '../metrics/ingress.metrics';
import { acceptedBody } from './accepted-body';
import { AcceptCloudEventUseCase } from './usecases/accept-cloudevent/accept-cloudevent.usecase';
import { EventStatus, GetEventStatusUseCase } from './usecases/get-event-status/get-event-status.usecase';

@Controller('events')
export class EventsController {
  constructor(
    private readonly acceptCloudEvent: AcceptCloudEventUseCase,
    private readonly getEventStatus: GetEventStatusUseCase,
    private readonly metrics: IngressMetrics,
  ) {}

  @Post()
  @HttpCode(202)
  async receive(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await this.acceptCloudEvent.execute({
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      headers: request.headers,
      rawBody: (request.body as Buffer | undefined) ?? Buffer.alloc(0),
    });
    annotateRequest(request, { source: result.source, eventId: result.id, outcome: result.duplicate ? 'duplicate' : 'accepted' });
    this.metrics.recorded('cloudevents', result.duplicate);
    if (result.duplicate) reply.status(200);
    return acceptedBody(result);
  }

  @Get(':id')
  status(@Param('id') id: string): Promise<EventStatus> {
    return this.getEventStatus.execute(id);
  }
}
