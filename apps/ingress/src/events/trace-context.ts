import { ATTR, contextOf, inSpan, KAFKA, Span, SpanKind, traceparentOf, tracingOn } from '@app/tracing';
import { IncomingHttpHeaders } from 'node:http';
import { Problem } from '@app/http';

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** W3C trace context of the request, carried with the event as the CloudEvents `traceparent` extension. */
export function traceExtensions(headers: IncomingHttpHeaders): Record<string, string> {
  const traceparent = headers.traceparent;
  return typeof traceparent === 'string' && TRACEPARENT.test(traceparent) ? { traceparent } : {};
}

/**
 * When the ingress traces: `accept` in its server span (`POST <route>`), child of the sender's `traceparent` when it
 * sent one, with the status the request is answered with. Otherwise `accept` alone.
 */
export function receiveSpan<T extends { duplicate: boolean }>(
  route: string,
  headers: IncomingHttpHeaders,
  accept: () => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return accept();
  const attributes = { [ATTR.httpMethod]: 'POST', [ATTR.httpRoute]: route };
  return inSpan(
    { name: `POST ${route}`, kind: SpanKind.SERVER, parent: contextOf(headers.traceparent), attributes },
    async (span) => {
      try {
        const result = await accept();
        span.setAttribute(ATTR.httpStatus, result.duplicate ? 200 : 202);
        return result;
      } catch (error) {
        if (error instanceof Problem) span.setAttribute(ATTR.httpStatus, error.status);
        throw error;
      }
    },
  );
}

/**
 * When the ingress traces: `write` in a producer span `create <topic>` (the outbox row is the message, sent later by
 * a relay), given the `traceparent` the row carries so that the relay's span is its child. Otherwise `write` with
 * the sender's context as it came.
 */
export function createSpan<T>(
  topic: string,
  key: string,
  write: (traceparent: string | undefined, span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return write(undefined, undefined);
  const attributes = {
    [ATTR.messagingSystem]: KAFKA,
    [ATTR.operationType]: 'create',
    [ATTR.operationName]: 'create',
    [ATTR.destination]: topic,
    [ATTR.kafkaKey]: key,
  };
  return inSpan({ name: `create ${topic}`, kind: SpanKind.PRODUCER, attributes }, (span) =>
    write(traceparentOf(span), span),
  );
}
