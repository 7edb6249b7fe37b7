import { CLOUDEVENTS_SPEC_VERSION, CUSTOMER_ID_PATTERN } from '../cloudevent';
import { schemaId } from '../dataschema';
import { CE_HEADERS, HOOKRAIL_HEADERS } from '../headers';
import { JsonSchema } from './json-schema';

/** W3C Trace Context `traceparent`: version-traceid-parentid-flags. */
const TRACEPARENT = '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$';

/**
 * The Kafka headers of a hookrail message (CloudEvents Kafka protocol binding, binary mode): every attribute is a
 * `ce_<name>` header, the value is the data. `type` fixes `ce_type`; without it any registered or unregistered type.
 * Extension attributes arrive as further `ce_*` headers, so other headers are allowed (strings).
 */
export function cloudEventHeadersSchema(type?: string): JsonSchema {
  return {
    type: 'object',
    description:
      'CloudEvents attributes as Kafka headers (binary content mode). Dedupe on ce_hookrailid (ce_id on a message ' +
      'from before it): a message can arrive more than once.',
    properties: {
      [CE_HEADERS.specversion]: { type: 'string', const: CLOUDEVENTS_SPEC_VERSION },
      [CE_HEADERS.id]: {
        type: 'string',
        minLength: 1,
        description:
          "The event's CloudEvents id, unique with its ce_source: the producer's own for an event posted to " +
          "POST /events (passed on unchanged), else hookrail's (a UUID, the same as ce_hookrailid).",
      },
      [CE_HEADERS.hookrailid]: {
        type: 'string',
        minLength: 1,
        description:
          "hookrail's own event id (the hookrailid extension, a UUID), unique across all sources: the id the ingress " +
          'answered, of the status URL, dead letters and webhook deliveries. Dedupe on it.',
      },
      [CE_HEADERS.source]: {
        type: 'string',
        minLength: 1,
        description: 'Where the event came from, e.g. /webhooks/shop or an internal producer.',
      },
      [CE_HEADERS.type]: type
        ? { type: 'string', const: type }
        : { type: 'string', minLength: 1, description: 'The versioned event type.' },
      [CE_HEADERS.time]: { type: 'string', format: 'date-time' },
      [CE_HEADERS.subject]: {
        type: 'string',
        description: 'The aggregate id (also the message key), when the event has one.',
      },
      [CE_HEADERS.dataschema]: type
        ? {
            type: 'string',
            const: schemaId(type),
            description:
              'The catalogue entry of the data\'s schema: the $id of schemas/<type>.json, served at ' +
              'GET /catalog/schemas/<type>. Set by hookrail on every event of a registered type; a dead letter ' +
              'replayed from an older installation may lack it.',
          }
        : {
            type: 'string',
            minLength: 1,
            description: "The producer's own schema URI, when it gave one: hookrail has no contract for the type.",
          },
      [CE_HEADERS.traceparent]: {
        type: 'string',
        pattern: TRACEPARENT,
        description:
          'W3C trace context of the request that produced the event; when hookrail traces, that of the span that ' +
          'published the message, the parent of a consumer\'s span.',
      },
      [CE_HEADERS.customerid]: {
        type: 'string',
        pattern: CUSTOMER_ID_PATTERN.source,
        description:
          'The customer the event belongs to (the customerid extension): its uid among the outbound webhooks\' ' +
          'customers, whose endpoints receive the event beside the operator\'s. Absent: the operator\'s only.',
      },
      [CE_HEADERS.contentType]: { type: 'string', const: 'application/json' },
      [HOOKRAIL_HEADERS.replayCount]: {
        type: 'string',
        pattern: '^[0-9]+$',
        description: 'Only on a replay topic: how many times this message was replayed.',
      },
      [HOOKRAIL_HEADERS.deadLetterId]: {
        type: 'string',
        description: 'Only on a replay topic: the dead letter the replay came from.',
      },
    },
    required: [
      CE_HEADERS.specversion,
      CE_HEADERS.id,
      CE_HEADERS.source,
      CE_HEADERS.type,
      CE_HEADERS.time,
      CE_HEADERS.contentType,
    ],
    additionalProperties: { type: 'string' },
  };
}

/** The headers of a dead letter on `<group>.dlt`: the original message's headers plus where and why it died. */
export function deadLetterHeadersSchema(): JsonSchema {
  const text = (description: string) => ({ type: 'string', description });
  const count = (description: string) => ({ type: 'string', pattern: '^[0-9]+$', description });
  return {
    type: 'object',
    description: "The original message's headers (ce_* included, when it had them) plus the dead-letter headers.",
    properties: {
      [HOOKRAIL_HEADERS.dltTopic]: text('Topic the message was consumed from.'),
      [HOOKRAIL_HEADERS.dltPartition]: count('Its partition.'),
      [HOOKRAIL_HEADERS.dltOffset]: count('Its offset.'),
      [HOOKRAIL_HEADERS.dltGroup]: text('The consumer group that gave up on it.'),
      [HOOKRAIL_HEADERS.dltEventId]: text(
        "hookrail's event id (ce_hookrailid, else ce_id), empty when the message could not be parsed.",
      ),
      [HOOKRAIL_HEADERS.dltErrorClass]: text('Error class, e.g. EventValidationError or PermanentError.'),
      [HOOKRAIL_HEADERS.dltErrorMessage]: text('Error message (at most 1000 characters).'),
      [HOOKRAIL_HEADERS.dltErrorStack]: text('Stack trace (at most 4000 characters).'),
      [HOOKRAIL_HEADERS.dltAttempts]: count('Attempts made before giving up.'),
      [HOOKRAIL_HEADERS.dltFirstFailureAt]: { type: 'string', format: 'date-time' },
      [HOOKRAIL_HEADERS.dltLastFailureAt]: { type: 'string', format: 'date-time' },
    },
    required: [
      HOOKRAIL_HEADERS.dltTopic,
      HOOKRAIL_HEADERS.dltPartition,
      HOOKRAIL_HEADERS.dltOffset,
      HOOKRAIL_HEADERS.dltGroup,
      HOOKRAIL_HEADERS.dltErrorClass,
      HOOKRAIL_HEADERS.dltAttempts,
    ],
    additionalProperties: { type: 'string' },
  };
}
