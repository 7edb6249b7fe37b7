import { CUSTOMER_ID_ATTRIBUTE } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { BackpressureService } from '../../../backpressure/backpressure.service';
import { IncomingHttpHeaders } from 'node:http';
import { checkCustomerId, checkData, checkIdentifier, checkType, parseJsonObject } from '../../../events/event-checks';
import { readKey, readPath } from '../../../events/json-path';
import { receivedHeaders } from '../../../events/received-headers';
import { RecordEventResult, RecordEventUseCase } from '../../../events/usecases/record-event/record-event.usecase';
import { receiveSpan, traceExtensions } from '../../../events/trace-context';
import { unknownSource, unsupportedMediaType } from '@app/http';
import { SourceRegistry } from '../../../sources/source-registry';

export interface AcceptWebhookCommand {
  sourceName: string;
  contentType: string | undefined;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

const JSON_CONTENT_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;.*)?$/i;

/** POST /webhooks/:source — verify on the raw bytes, derive identity, validate, record durably. */
@Injectable()
export class AcceptWebhookUseCase {
  constructor(
    private readonly sources: SourceRegistry,
    private readonly recordEvent: RecordEventUseCase,
    private readonly backpressure: BackpressureService,
  ) {}

  execute(command: AcceptWebhookCommand): Promise<RecordEventResult & { source: string }> {
    return receiveSpan('/webhooks/:source', command.headers, () => this.accept(command));
  }

  private async accept(command: AcceptWebhookCommand): Promise<RecordEventResult & { source: string }> {
    const registered = this.sources.find(command.sourceName);
    if (!registered) throw unknownSource(command.sourceName);
    const { source, scheme } = registered;
    if (!command.contentType || !JSON_CONTENT_TYPE.test(command.contentType))
      throw unsupportedMediaType(command.contentType, 'application/json');

    scheme.verify(command.rawBody, command.headers, Math.floor(Date.now() / 1000));
    this.backpressure.check();

    const text = command.rawBody.toString('utf8');
    const body = parseJsonObject(text);
    const identity = scheme.identify(command.headers, body);
    const senderEventId = checkIdentifier('the sender event id', identity.senderEventId);
    const type = checkType(
      identity.type ?? readPath(body, source.typePath),
      identity.type ? 'header' : `body.${source.typePath}`,
    );
    const data = source.dataPath ? readPath(body, source.dataPath) : body;
    checkData(type, data);
    const aggregateId = checkIdentifier(
      'the aggregate id',
      (source.aggregateIdPath && readKey(body, source.aggregateIdPath)) || senderEventId,
    );
    const customerId =
      source.customerIdPath &&
      checkCustomerId(readKey(body, source.customerIdPath), `the customer id (body.${source.customerIdPath})`);

    const result = await this.recordEvent.execute({
      source: source.name,
      senderEventId,
      type,
      aggregateId,
      topic: source.topic,
      ceSource: `/webhooks/${source.name}`,
      payload: body,
      payloadJson: text,
      rawBody: command.rawBody,
      data: data ?? null,
      extensions: { ...traceExtensions(command.headers), ...(customerId && { [CUSTOMER_ID_ATTRIBUTE]: customerId }) },
      scheme: source.scheme,
      headers: receivedHeaders(command.headers),
    });
    return { ...result, source: source.name };
  }
}
