import { Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { annotateRequest } from '@app/http';
import { IngressMetrics } from '../metrics/ingress.metrics';
import { acceptedBody } from './accepted-body';
import { AcceptCloudEventUseCase } from './usecases/accept-cloudevent/accept-cloudevent.usecase';
import { EventStatusView } from './event-status.view';
import { GetEventStatusUseCase } from './usecases/get-event-status/get-event-status.usecase';
import { StatusFrame, StreamEventStatusUseCase } from './usecases/stream-event-status/stream-event-status.usecase';

const STREAM_POLL_MS = 500;

@Controller('events')
export class EventsController {
  constructor(
    private readonly acceptCloudEvent: AcceptCloudEventUseCase,
    private readonly getEventStatus: GetEventStatusUseCase,
    private readonly streamEventStatus: StreamEventStatusUseCase,
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
    annotateRequest(request, {
      source: result.source,
      eventId: result.id,
      outcome: result.duplicate ? 'duplicate' : 'accepted',
    });
    this.metrics.recorded('cloudevents', result.duplicate);
    if (result.duplicate) reply.status(200);
    return acceptedBody(result);
  }

  /** The status as the bearer may see it (see docs/intake.md, "Who may read an event's status"). */
  @Get(':id')
  status(
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<EventStatusView> {
    return this.getEventStatus.execute({ id, authorization });
  }

  /**
   * Server-Sent Events; resumable: a reconnect with Last-Event-ID gets only newer states. A stored token is checked
   * again while the stream is open; once it is revoked or expired, an `access-ended` event says why and the stream ends.
   */
  @Get(':id/stream')
  async stream(
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const reader = await this.streamEventStatus.open(id, authorization); // 401 / 400 / 404 as JSON, before the stream
    const closed = new AbortController();
    request.raw.once('close', () => closed.abort());
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    reply.raw.write(`retry: 2000\n\n`);
    const command = { id, reader, lastEventId, pollMs: STREAM_POLL_MS, signal: closed.signal };
    for await (const frame of this.streamEventStatus.frames(command)) reply.raw.write(sseFrame(frame));
    reply.raw.end();
  }
}

function sseFrame(frame: StatusFrame): string {
  if (frame.event === 'access-ended') return `event: ${frame.event}\ndata: ${JSON.stringify(frame.ended)}\n\n`;
  const data = frame.event === 'status' ? frame.status : frame.transition;
  return `id: ${frame.id}\nevent: ${frame.event}\ndata: ${JSON.stringify(data)}\n\n`;
}
