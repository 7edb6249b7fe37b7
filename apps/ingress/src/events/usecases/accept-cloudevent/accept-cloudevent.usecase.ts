import { CLOUDEVENTS_ATTRIBUTES, CUSTOMER_ID_ATTRIBUTE, HOOKRAIL_ID_ATTRIBUTE } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { BackpressureService } from '../../../backpressure/backpressure.service';
import { CloudEventV1, HTTP } from 'cloudevents';
import { IncomingHttpHeaders } from 'node:http';
import { malformed, unsupportedMediaType } from '@app/http';
import { checkCustomerId, checkData, checkIdentifier, checkType, parseJsonObject } from '../../event-checks';
import { receivedHeaders } from '../../received-headers';
import { receiveSpan, traceExtensions } from '../../trace-context';
import { CloudEventTopics } from '../../topic-routing';
import { RecordEventResult, RecordEventUseCase } from '../record-event/record-event.usecase';
import { CLOUDEVENTS_SCHEME, ProducerTokens } from './producer-auth';

export interface AcceptCloudEventCommand {
  authorization: string | undefined;
  contentType: string | undefined;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

const STRUCTURED = /^application\/cloudevents\+json\s*(;.*)?$/i;
const JSON_DATA = /^application\/([a-z0-9.+-]+\+)?json\s*(;.*)?$/i;
// hookrail sets `hookrailid` itself: one a producer sent is not passed on.
const CORE = new Set([...CLOUDEVENTS_ATTRIBUTES, 'data_base64', HOOKRAIL_ID_ATTRIBUTE]);
const MAX_SOURCE_LENGTH = 100;

/**
 * POST /events — a CloudEvent (structured or binary HTTP mode) from an internal producer, recorded like a webhook. Its
 * `source` and `id` are its identity: the deduplication key here, and passed on unchanged (hookrail's own id beside
 * them in `hookrailid`).
 */
@Injectable()
export class AcceptCloudEventUseCase {
  constructor(
    private readonly tokens: ProducerTokens,
    private readonly recordEvent: RecordEventUseCase,
    private readonly backpressure: BackpressureService,
    private readonly topics: CloudEventTopics,
  ) {}

  execute(command: AcceptCloudEventCommand): Promise<RecordEventResult & { source: string }> {
    return receiveSpan('/events', command.headers, () => this.accept(command));
  }

  private async accept(command: AcceptCloudEventCommand): Promise<RecordEventResult & { source: string }> {
    this.tokens.check(command.authorization);
    this.backpressure.check();
    const structured = STRUCTURED.test(command.contentType ?? '');
    if (!structured && !JSON_DATA.test(command.contentType ?? '')) {
      throw unsupportedMediaType(
        command.contentType,
        'application/cloudevents+json (structured) or application/json with ce-* headers (binary)',
      );
    }
    const text = command.rawBody.toString('utf8');
    const body = parseJsonObject(text, structured ? 'CloudEvent' : 'event data');
    // The SDK invents an id when none is given; an event without its own id could not be deduplicated.
    const givenId = structured ? body.id : command.headers['ce-id'];
    if (typeof givenId !== 'string' || givenId === '')
      throw malformed(structured ? 'the CloudEvent has no id' : 'the ce-id header is missing');
    const event = this.parse(command, text, structured);

    const type = checkType(event.type, 'type');
    const source = checkIdentifier('the CloudEvent source', event.source);
    if (source.length > MAX_SOURCE_LENGTH)
      throw malformed(`the CloudEvent source is longer than ${MAX_SOURCE_LENGTH} characters`);
    checkData(type, event.data);
    checkCustomerId(event[CUSTOMER_ID_ATTRIBUTE], `the ${CUSTOMER_ID_ATTRIBUTE} attribute`);
    const key =
      typeof event.partitionkey === 'string' && event.partitionkey ? event.partitionkey : (event.subject ?? event.id);
    const extensions: Record<string, string> = { ...traceExtensions(command.headers) };
    for (const [name, value] of Object.entries(event)) {
      if (!CORE.has(name) && value !== undefined && value !== null) extensions[name] = String(value);
    }
    // Passed on for a type without a contract; the record names the catalogue entry of one with (toKafkaRecord).
    if (typeof event.dataschema === 'string') extensions.dataschema = event.dataschema;
    const id = checkIdentifier('the CloudEvent id', event.id);
    const result = await this.recordEvent.execute({
      source,
      senderEventId: id,
      producerId: id,
      type,
      aggregateId: checkIdentifier('the partition key (partitionkey, subject or id)', key),
      subject: event.subject ?? null,
      topic: this.topics.topicOf(type),
      ceSource: source,
      payload: structured ? body : { data: body },
      payloadJson: structured ? text : undefined,
      rawBody: command.rawBody,
      data: event.data ?? null,
      time: event.time,
      extensions,
      scheme: CLOUDEVENTS_SCHEME,
      headers: receivedHeaders(command.headers),
    });
    return { ...result, source };
  }

  private parse(command: AcceptCloudEventCommand, text: string, structured: boolean): CloudEventV1<unknown> {
    if (!structured && !command.headers['ce-specversion'])
      throw malformed('binary mode needs ce-specversion, ce-id, ce-source and ce-type headers');
    try {
      const parsed = HTTP.toEvent({
        headers: command.headers as Record<string, string>,
        body: text,
      });
      if (Array.isArray(parsed)) throw malformed('batched CloudEvents are not accepted; send one event per request');
      return parsed as CloudEventV1<unknown>;
    } catch (error) {
      if (error instanceof Error && error.name === 'Problem') throw error;
      const detail = (error as { errors?: unknown }).errors;
      throw malformed(
        `not a valid CloudEvent: ${(error as Error).message}${detail ? ` ${JSON.stringify(detail)}` : ''}`,
      );
    }
  }
}
