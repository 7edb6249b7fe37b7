import { deleteTopics, testKafka, uniqueName } from '@app/testing';
import { ensureTopics } from './topic-admin';

describe('ensureTopics', () => {
  const topics = [uniqueName('ensure-a'), uniqueName('ensure-b')];

  afterAll(() => deleteTopics(topics));

  it('creates a topic named twice once, leaves every partition with a leader, and is idempotent', async () => {
    const kafka = testKafka();
    const specs = [...topics, topics[0]].map((topic) => ({ topic, numPartitions: 3 }));

    expect((await ensureTopics(kafka, specs)).sort()).toEqual([...topics].sort());

    const admin = kafka.admin();
    await admin.connect();
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      for (const topic of metadata.topics) {
        expect(topic.partitions).toHaveLength(3);
        expect(topic.partitions.every((partition) => partition.leader >= 0)).toBe(true);
      }
    } finally {
      await admin.disconnect();
    }
    expect(await ensureTopics(kafka, specs)).toEqual([]);
  });
});
