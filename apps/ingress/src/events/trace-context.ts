import { IncomingHttpHeaders } from 'node:http';

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** W3C trace context of the request, carried with the event as the CloudEvents `traceparent` extension. */
export function traceExtensions(headers: IncomingHttpHeaders): Record<string, string> {
  const traceparent = headers.traceparent;
  return typeof traceparent === 'string' && TRACEPARENT.test(traceparent) ? { traceparent } : {};
}
