import { createTestTopic, deleteTopics, testKafka, uniqueName, waitFor } from '@app/testing';
import { Consumer, KafkaMessage } from 'kafkajs';

describe('kafkajs against the project broker', () => {
  let topic: string;
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    topic = await createTestTopic('round-trip', 3);
  });

  afterAll(async () => {
    await Promise.all(consumers.map((consumer) => consumer.disconnect()));
    await deleteTopics([topic]);
  });

  async function consume(groupId: string, received: KafkaMessage[]): Promise<Consumer> {
    const consumer = testKafka().consumer({ groupId });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        received.push(message);
        await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
      },
    });
    return consumer;
  }

  it('produces with a key (idempotent, acks=all), consumes in a group, commits, and is not redelivered after a restart', async () => {
    const producer = testKafka().producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const groupId = uniqueName('round-trip-group');

    await producer.send({ topic, acks: -1, messages: [{ key: 'order-1', value: 'first', headers: { ce_id: 'e1' } }] });
    const firstRun: KafkaMessage[] = [];
    const first = await consume(groupId, firstRun);
    await waitFor(() => firstRun.length === 1, { what: 'the first message' });
    expect(firstRun[0].key?.toString()).toBe('order-1');
    expect(firstRun[0].headers?.ce_id?.toString()).toBe('e1');
    await first.disconnect();

    await producer.send({ topic, acks: -1, messages: [{ key: 'order-1', value: 'second' }] });
    const secondRun: KafkaMessage[] = [];
    await consume(groupId, secondRun);
    await waitFor(() => secondRun.length >= 1, { what: 'the second message' });
    await producer.disconnect();

    expect(secondRun.map((message) => message.value?.toString())).toEqual(['second']);
  });
});
