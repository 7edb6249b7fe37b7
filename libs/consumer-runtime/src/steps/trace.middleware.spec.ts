import { CloudEvent } from '@app/contracts';
import { useInMemoryTracing } from '@app/testing';
import { activeTraceparent } from '@app/tracing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ParsedMessage } from './message';
import { processSpan } from './trace.middleware';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SEND_SPAN = '00f067aa0ba902b7';

function item(headers: Record<string, Buffer>): ParsedMessage {
  return {
    topic: 'shop.orders',
    partition: 2,
    message: {
      key: Buffer.from('ord-1'),
      value: Buffer.from('{}'),
      offset: '42',
      headers,
      timestamp: '0',
      attributes: 0,
    },
    event: { id: 'event-1', type: 'shop.order.placed.v1' } as CloudEvent,
    replayCount: 0,
  } as ParsedMessage;
}

describe('processSpan with tracing on', () => {
  const exporter = useInMemoryTracing();

  it("runs the attempt in a consumer span, child of the message's ce_traceparent (the relay's send span)", async () => {
    const traceparent = `00-${TRACE_ID}-${SEND_SPAN}-01`;
    const inside = await processSpan('staging.ledger', item({ ce_traceparent: Buffer.from(traceparent) }), async () =>
      activeTraceparent(),
    );
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('process shop.orders');
    expect(span.kind).toBe(SpanKind.CONSUMER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(SEND_SPAN);
    expect(span.attributes).toEqual({
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.operation.name': 'process',
      'messaging.destination.name': 'shop.orders',
      'messaging.consumer.group.name': 'staging.ledger',
      'messaging.destination.partition.id': '2',
      'messaging.kafka.offset': 42,
      'messaging.kafka.message.key': 'ord-1',
      'messaging.message.id': 'event-1',
    });
    // What the handler writes on (a webhook delivery row) names this span as the next hop's parent.
    expect(inside).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
  });

  it('marks a failed attempt and throws its error on', async () => {
    await expect(
      processSpan('ledger', item({}), async () => {
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
    const [span] = exporter.getFinishedSpans();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'provider down' });
  });
});

describe('processSpan with tracing off', () => {
  it('runs the attempt alone, with no span around it', async () => {
    const traceparent = `00-${TRACE_ID}-${SEND_SPAN}-01`;
    expect(
      await processSpan('ledger', item({ ce_traceparent: Buffer.from(traceparent) }), async () => activeTraceparent()),
    ).toBeUndefined();
  });
});
