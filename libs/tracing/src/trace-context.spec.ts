import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { useInMemoryTracing } from '@app/testing';
import { activeSpan, inSpan, startSpan } from './spans';
import { activeTraceparent, contextOf, traceparentOf } from './trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const SENDER = `00-${TRACE_ID}-${SPAN_ID}-01`;

describe('contextOf (extraction)', () => {
  it("makes the sender's traceparent a remote parent", () => {
    expect(trace.getSpanContext(contextOf(SENDER))).toEqual({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      traceFlags: 1,
      isRemote: true,
    });
  });

  it.each([
    ['nothing', undefined],
    ['a number', 42],
    ['another version', `01-${TRACE_ID}-${SPAN_ID}-01`],
    ['upper case', SENDER.toUpperCase()],
    ['a zero trace id', `00-${'0'.repeat(32)}-${SPAN_ID}-01`],
    ['a zero span id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['trailing text', `${SENDER}-x`],
  ])('gives no parent for %s', (_, traceparent) => {
    expect(trace.getSpanContext(contextOf(traceparent))).toBeUndefined();
  });
});

describe('spans with the SDK (injection)', () => {
  const exporter = useInMemoryTracing();

  it("continues the sender's trace, and its traceparent names the span as the next hop's parent", async () => {
    let inside: string | undefined;
    await inSpan({ name: 'POST /events', kind: SpanKind.SERVER, parent: contextOf(SENDER) }, async (span) => {
      inside = activeTraceparent();
      expect(inside).toBe(traceparentOf(span));
    });
    const [span] = exporter.getFinishedSpans();
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(SPAN_ID);
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(inside).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
  });

  it('makes a span started inside another its child', async () => {
    await inSpan({ name: 'process orders', kind: SpanKind.CONSUMER, parent: contextOf(SENDER) }, async () => {
      startSpan({ name: 'POST', kind: SpanKind.CLIENT }).end();
    });
    const [child, parent] = exporter.getFinishedSpans();
    expect(child.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(child.spanContext().traceId).toBe(TRACE_ID);
  });

  it('marks the span failed and throws the error on', async () => {
    await expect(
      inSpan({ name: 'send orders', kind: SpanKind.PRODUCER }, async () => {
        throw new Error('broker gone');
      }),
    ).rejects.toThrow('broker gone');
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'broker gone' });
    expect(span.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('has no active span outside one', () => {
    expect(activeSpan()).toBeUndefined();
    expect(activeTraceparent()).toBeUndefined();
  });
});
