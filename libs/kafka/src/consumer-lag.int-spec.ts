import { createTestTopic, deleteTopics, testKafka, uniqueName, waitFor } from '@app/testing';
import { Admin, Consumer } from 'kafkajs';
import { findConsumerLag } from './consumer-lag';

const PARTITIONS = 6;
const PER_PARTITION = 10;

describe('findConsumerLag counts every partition, committed or not', () => {
  const kafka = testKafka('consumer-lag-test');
  let admin: Admin;
  let topic: string;
  let consumer: Consumer | undefined;

  beforeAll(async () => {
    topic = await createTestTopic('lag', PARTITIONS);
    admin = kafka.admin();
    await admin.connect();
    // Idempotent: a send retried on a slow broker must not write the messages twice (the ends are asserted).
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: PARTITIONS * PER_PARTITION }, (_, index) => ({
        partition: index % PARTITIONS,
        value: `m${index}`,
      })),
    });
    await producer.disconnect();
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await admin?.disconnect();
    await deleteTopics([topic]).catch(() => undefined);
  });

  const total = (rows: Array<{ lag: number }>) => rows.reduce((sum, row) => sum + row.lag, 0);

  it('a fresh group that committed on one partition: the five others count from the start of their log', async () => {
    const groupId = uniqueName('fresh');
    await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '4' }] });

    const rows = await findConsumerLag(admin, [groupId]);

    expect(rows).toHaveLength(PARTITIONS);
    expect(rows[0]).toEqual({ groupId, topic, partition: 0, committed: 4, end: PER_PARTITION, lag: PER_PARTITION - 4 });
    expect(rows.slice(1).every((row) => row.committed === -1 && row.lag === PER_PARTITION)).toBe(true);
    expect(total(rows)).toBe(PARTITIONS * PER_PARTITION - 4);
  });

  it('a group that never committed: counted from its declared topics, or from its members while they run', async () => {
    const declared = uniqueName('never-committed');
    expect(total(await findConsumerLag(admin, [{ groupId: declared, topics: [topic] }]))).toBe(
      PARTITIONS * PER_PARTITION,
    );
    expect(await findConsumerLag(admin, [declared])).toEqual([]);

    // A member that reads and never commits (it dies before its first commit, again and again).
    const groupId = uniqueName('crash-looping');
    consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 200 });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    let fetched = 0;
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        fetched += batch.messages.length;
      },
    });
    await waitFor(() => fetched > 0, { what: 'the member fetching' });
    const rows = await findConsumerLag(admin, [groupId]);
    expect(rows.map((row) => row.committed)).toEqual(Array(PARTITIONS).fill(-1));
    expect(total(rows)).toBe(PARTITIONS * PER_PARTITION);
  });

  it('a partition whose log start moved on counts from the new start', async () => {
    const groupId = uniqueName('after-retention');
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 1, offset: '7' }] });
    const rows = await findConsumerLag(admin, [{ groupId, topics: [topic] }]);
    expect(rows.find((row) => row.partition === 1)).toMatchObject({ committed: -1, lag: PER_PARTITION - 7 });
  });
});
