import { activeSpan } from './spans';
import { Context, isSpanContextValid, ROOT_CONTEXT, Span, SpanContext, trace } from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The context a W3C `traceparent` (version 00) names, as a remote parent; the root context for anything else
 * (absent, malformed, all-zero ids), so that a span started in it begins a trace of its own.
 */
export function contextOf(traceparent: unknown, base: Context = ROOT_CONTEXT): Context {
  if (typeof traceparent !== 'string') return base;
  const match = TRACEPARENT.exec(traceparent);
  if (!match) return base;
  const spanContext: SpanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: parseInt(match[3], 16),
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(base, spanContext) : base;
}

/** The `traceparent` that makes a span the parent of the next hop's spans. */
export function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The `traceparent` of the span of the code running now, when this process traces. */
export function activeTraceparent(): string | undefined {
  const span = activeSpan();
  return span ? traceparentOf(span) : undefined;
}
