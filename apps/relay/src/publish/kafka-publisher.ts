import { createKafka, KafkaConnection } from '@app/kafka';
import { OutboxRow } from '@app/outbox';
import { Admin, ICustomPartitioner, Message, PartitionMetadata, Partitioners, Producer, RecordMetadata } from 'kafkajs';
import { Logger } from 'pino';
import { tracingOn } from '@app/tracing';
import { SendSpans } from './send-spans';

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
 * The broker acknowledged only part of a batch. kafkajs 2.2.4 keeps the answers of the brokers that succeeded across
 * the retries of one send; when a partition's leader moves to such a broker, the retry never sends that partition
 * again and the send resolves all the same (kafkajs #1303). Nothing of the batch counts as published then: it is
 * rolled back and sent again whole (at-least-once; consumers dedupe).
 */
export class IncompletePublishError extends Error {
  override name = 'IncompletePublishError';
  constructor(readonly missing: string[]) {
    super(`the broker acknowledged the batch without partitions ${missing.join(', ')}; sending it again`);
  }
}

/** `topic:partition` of every message that the acknowledgements do not cover. */
export function unacknowledged(sent: Map<string, Set<number>>, acks: RecordMetadata[]): string[] {
  const acked = new Set(acks.filter((ack) => ack.errorCode === 0).map((ack) => `${ack.topicName}:${ack.partition}`));
  return [...sent].flatMap(([topic, partitions]) =>
    [...partitions].map((partition) => `${topic}:${partition}`).filter((key) => !acked.has(key)),
  );
}

/**
 * The relay's idempotent producer (acks from all in-sync replicas, one request in flight, so that a retry cannot
 * reorder). It places each message on its partition itself (murmur2 of the key, as kafkajs and the Java client do,
 * over the topic's partitions as the brokers list them) and counts a batch as sent only when every partition it
 * wrote to is acknowledged. After a transient failure the producer is thrown away and the next send starts a fresh
 * one: a new producer id, so no stale sequence numbers survive an outage.
 */
export class KafkaPublisher {
  private producer?: Producer;
  private admin?: Admin;
  private readonly partitioner: ReturnType<ICustomPartitioner> = Partitioners.DefaultPartitioner();
  /** Partitions per topic, looked up once per producer (a new producer after a failure looks again). */
  private readonly partitions = new Map<string, PartitionMetadata[]>();

  constructor(
    private readonly connection: KafkaConnection,
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
    const sent = new Map<string, Set<number>>();
    const spans = tracingOn() ? new SendSpans(rows) : undefined;
    try {
      const topicMessages = await Promise.all(
        [...byTopic].map(async ([topic, topicRows]) => {
          const partitionMetadata = await this.partitionsOf(topic);
          const messages: Message[] = topicRows.map((row) => {
            const headers = spans ? spans.headersOf(row) : row.headers;
            const message: Message = { key: row.key, value: row.value, headers };
            if (!partitionMetadata) return message;
            message.partition = this.partitioner({ topic, partitionMetadata, message });
            spans?.partitionOf(row, message.partition);
            sent.set(topic, (sent.get(topic) ?? new Set()).add(message.partition));
            return message;
          });
          return { topic, messages };
        }),
      );
      const acks = await producer.sendBatch({ acks: -1, topicMessages });
      const missing = unacknowledged(sent, acks);
      if (missing.length > 0) throw new IncompletePublishError(missing);
      spans?.end();
      return acks;
    } catch (error) {
      spans?.end(error);
      if (!isPermanentPublishError(error)) await this.reset();
      throw error;
    }
  }

  async reset(): Promise<void> {
    const [producer, admin] = [this.producer, this.admin];
    this.producer = undefined;
    this.admin = undefined;
    this.partitions.clear();
    await producer?.disconnect().catch(() => undefined);
    await admin?.disconnect().catch(() => undefined);
  }

  /**
   * The topic's partitions, or undefined when the brokers cannot say (e.g. a topic that does not exist): kafkajs
   * then places the messages and fails the send with the broker's own error, as before.
   */
  private async partitionsOf(topic: string): Promise<PartitionMetadata[] | undefined> {
    const known = this.partitions.get(topic);
    if (known) return known;
    try {
      this.admin ??= createKafka('hookrail-relay', this.connection, this.logger).admin();
      await this.admin.connect();
      const [metadata] = (await this.admin.fetchTopicMetadata({ topics: [topic] })).topics;
      if (!metadata || metadata.partitions.length === 0) return undefined;
      this.partitions.set(topic, metadata.partitions);
      return metadata.partitions;
    } catch {
      return undefined;
    }
  }

  private async connected(): Promise<Producer> {
    if (this.producer) return this.producer;
    // Few retries inside kafkajs: after them the batch rolls back and is sent again by a fresh producer (reset()), so
    // the loop's own backoff, logging and shutdown stay in charge, and no producer sends again after giving up.
    const kafka = createKafka('hookrail-relay', this.connection, this.logger, {
      producerReplacedAfterFailedSend: true,
    });
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // murmur2 of the key, as the Java client: a key lands on the same partition whoever produces it.
      createPartitioner: Partitioners.DefaultPartitioner,
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
