import { createKafka } from '@app/kafka';
import { OutboxRow } from '@app/outbox';
import { Partitioners, Producer, RecordMetadata } from 'kafkajs';
import { Logger } from 'pino';

/** Broker error types that retrying the same message can never fix; the row is parked instead. */
const PERMANENT_ERROR_TYPES = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'INVALID_TOPIC_EXCEPTION',
  'UNSUPPORTED_FOR_MESSAGE_FORMAT',
]);

export function isPermanentPublishError(error: unknown): boolean {
  const { name, type } = (error ?? {}) as { name?: string; type?: string };
  return name === 'KafkaJSProtocolError' && type !== undefined && PERMANENT_ERROR_TYPES.has(type);
}

/**
 * The relay's idempotent producer (acks from all in-sync replicas, one request in flight, so that a retry cannot
 * reorder). After a transient failure the producer is thrown away and the next send starts a fresh one: a new
 * producer id, so no stale sequence numbers survive an outage.
 */
export class KafkaPublisher {
  private producer?: Producer;

  constructor(
    private readonly brokers: string[],
    private readonly logger: Logger,
  ) {}

  async send(rows: OutboxRow[]): Promise<RecordMetadata[]> {
    const producer = await this.connected();
    const byTopic = new Map<string, OutboxRow[]>();
    for (const row of rows) {
      const topicRows = byTopic.get(row.topic);
      if (topicRows) topicRows.push(row);
      else byTopic.set(row.topic, [row]);
    }
    try {
      return await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, topicRows]) => ({
          topic,
          messages: topicRows.map((row) => ({ key: row.key, value: row.value, headers: row.headers })),
        })),
      });
    } catch (error) {
      if (!isPermanentPublishError(error)) await this.reset();
      throw error;
    }
  }

  async reset(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await producer?.disconnect().catch(() => undefined);
  }

  private async connected(): Promise<Producer> {
    if (this.producer) return this.producer;
    const producer = createKafka('hookrail-relay', this.brokers, this.logger).producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // murmur2 of the key, as the Java client: a key lands on the same partition whoever produces it.
      createPartitioner: Partitioners.DefaultPartitioner,
      // Few retries inside kafkajs (it warns about that for idempotent producers): after them the batch rolls back
      // and is sent again by a fresh producer, so the loop's own backoff, logging and shutdown stay in charge.
      retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 },
    });
    try {
      await producer.connect();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    this.producer = producer;
    return producer;
  }
}
