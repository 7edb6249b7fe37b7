import { CloudEvent, toKafkaRecord } from '@app/contracts';
import { laneOf } from './outbox-lanes';

/** The column values of one new outbox row. */
export interface NewOutboxRow {
  lane: number;
  eventId: string;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** An outbox row as the relay publishes it: what was written, plus its id and time. */
export interface OutboxRow extends NewOutboxRow {
  id: string;
  createdAt: Date;
}

/** A CloudEvent as an outbox row: CloudEvents Kafka binding (binary mode), keyed by its subject, laned by the key. */
export function toOutboxRow(topic: string, event: CloudEvent): NewOutboxRow {
  const record = toKafkaRecord(event);
  return {
    lane: laneOf(record.key),
    eventId: event.id,
    topic,
    key: record.key,
    value: record.value,
    headers: record.headers,
  };
}
