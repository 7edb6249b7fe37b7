import { OutboxRow } from '@app/outbox';
import { useInMemoryTracing } from '@app/testing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SendSpans } from './send-spans';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CREATE_SPAN = '00f067aa0ba902b7';

function row(id: string, headers: Record<string, string>): OutboxRow {
  return {
    id,
    lane: 0,
    eventId: `event-${id}`,
    topic: 'shop.orders',
    key: `ord-${id}`,
    value: '{}',
    headers: { ce_id: `event-${id}`, ...headers },
    createdAt: new Date(),
  };
}

describe('SendSpans', () => {
  const exporter = useInMemoryTracing();

  it("gives each message a send span, child of its outbox row's traceparent, and that span's traceparent", () => {
    const traced = row('1', { ce_traceparent: `00-${TRACE_ID}-${CREATE_SPAN}-01` });
    const untraced = row('2', {});
    const spans = new SendSpans([traced, untraced]);
    const headers = spans.headersOf(traced);
    spans.partitionOf(traced, 3);
    spans.end();

    const [first, second] = exporter.getFinishedSpans();
    expect(first.name).toBe('send shop.orders');
    expect(first.kind).toBe(SpanKind.PRODUCER);
    expect(first.spanContext().traceId).toBe(TRACE_ID);
    expect(first.parentSpanContext?.spanId).toBe(CREATE_SPAN);
    expect(first.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.operation.type': 'send',
      'messaging.destination.name': 'shop.orders',
      'messaging.destination.partition.id': '3',
      'messaging.kafka.message.key': 'ord-1',
      'messaging.message.id': 'event-1',
      'messaging.batch.message_count': 2,
    });
    expect(headers).toEqual({ ce_id: 'event-1', ce_traceparent: `00-${TRACE_ID}-${first.spanContext().spanId}-01` });
    // A row without a traceparent starts a trace of its own, and its message carries it.
    expect(second.parentSpanContext).toBeUndefined();
    expect(spans.headersOf(untraced).ce_traceparent).toBe(
      `00-${second.spanContext().traceId}-${second.spanContext().spanId}-01`,
    );
  });

  it('marks every span of a failed produce request as an error', () => {
    const spans = new SendSpans([row('1', {}), row('2', {})]);
    spans.end(new Error('broker gone'));
    expect(exporter.getFinishedSpans().map((span) => span.status)).toEqual([
      { code: SpanStatusCode.ERROR, message: 'broker gone' },
      { code: SpanStatusCode.ERROR, message: 'broker gone' },
    ]);
  });
});
