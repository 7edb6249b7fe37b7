import { CE_HEADERS } from '@app/contracts';
import { OutboxRow } from '@app/outbox';
import { ATTR, contextOf, failed, KAFKA, Span, SpanKind, startSpan, traceparentOf } from '@app/tracing';

/**
 * One producer span `send <topic>` per message of a produce request, child of the span that created its outbox row
 * (the row's `ce_traceparent`): one event, one trace. The spans start before the request and end with its
 * acknowledgement, together; the message carries its own span's context in `ce_traceparent`, so that every
 * consumer group's span is its child.
 */
export class SendSpans {
  private readonly spans = new Map<OutboxRow, Span>();

  constructor(rows: OutboxRow[]) {
    for (const row of rows) {
      const attributes = {
        [ATTR.messagingSystem]: KAFKA,
        [ATTR.operationType]: 'send',
        [ATTR.operationName]: 'send',
        [ATTR.destination]: row.topic,
        [ATTR.kafkaKey]: row.key,
        [ATTR.messageId]: row.eventId,
        [ATTR.batchCount]: rows.length,
      };
      const parent = contextOf(row.headers[CE_HEADERS.traceparent]);
      this.spans.set(row, startSpan({ name: `send ${row.topic}`, kind: SpanKind.PRODUCER, parent, attributes }));
    }
  }

  /** The row's headers with its span's `ce_traceparent`. */
  headersOf(row: OutboxRow): Record<string, string> {
    const span = this.spans.get(row);
    return span ? { ...row.headers, [CE_HEADERS.traceparent]: traceparentOf(span) } : row.headers;
  }

  partitionOf(row: OutboxRow, partition: number): void {
    this.spans.get(row)?.setAttribute(ATTR.partition, String(partition));
  }

  end(error?: unknown): void {
    for (const span of this.spans.values()) {
      if (error !== undefined) failed(span, error);
      span.end();
    }
  }
}
