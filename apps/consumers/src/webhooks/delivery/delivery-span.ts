import { CheckedUrl } from '@app/ssrf-guard';
import { ATTR, contextOf, inSpan, SpanKind, SpanStatusCode, traceparentOf, tracingOn } from '@app/tracing';
import { ClaimedDelivery } from '@app/webhooks';

/**
 * When the consumers trace: an attempt's POST in a client span `POST`, child of the span that wrote the delivery
 * (the event's trace), its context sent on as the request's `traceparent` header. The URL in the span stops before
 * its query, which may hold a customer's token. Otherwise the POST alone, its headers as they were.
 */
export function postSpan<T extends { status: number }>(
  delivery: Pick<ClaimedDelivery, 'traceparent' | 'endpointId' | 'eventId' | 'attempts'>,
  target: CheckedUrl,
  headers: Record<string, string>,
  post: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return post(headers);
  const attributes = {
    [ATTR.httpMethod]: 'POST',
    [ATTR.serverAddress]: target.hostname,
    [ATTR.serverPort]: target.port,
    [ATTR.urlFull]: `${target.url.origin}${target.url.pathname}`,
    'http.request.resend_count': delivery.attempts - 1,
    'hookrail.webhook.endpoint_id': delivery.endpointId,
    [ATTR.messageId]: delivery.eventId,
  };
  const parent = contextOf(delivery.traceparent);
  return inSpan({ name: 'POST', kind: SpanKind.CLIENT, parent, attributes }, async (span) => {
    const answer = await post({ ...headers, traceparent: traceparentOf(span) });
    span.setAttribute(ATTR.httpStatus, answer.status);
    if (answer.status >= 400) {
      span.setAttribute(ATTR.errorType, String(answer.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return answer;
  });
}
