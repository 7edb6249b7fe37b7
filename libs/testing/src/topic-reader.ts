import { Consumer, IHeaders } from 'kafkajs';
import { testKafka, uniqueName } from './test-kafka';

export interface ReadMessage {
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

/** Reads a topic from the beginning in a group of its own and keeps every message, in arrival order. */
export class TopicReader {
  readonly messages: ReadMessage[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async start(topic: string): Promise<TopicReader> {
    const consumer = testKafka('hookrail-test-reader').consumer({
      groupId: uniqueName('reader'),
      maxWaitTimeInMs: 100,
    });
    const reader = new TopicReader(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        reader.messages.push({
          partition,
          offset: message.offset,
          key: message.key?.toString() ?? null,
          value: message.value?.toString() ?? null,
          headers: headersToStrings(message.headers),
        });
      },
    });
    return reader;
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }
}

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) result[name] = first.toString();
  }
  return result;
}
