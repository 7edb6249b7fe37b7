import { createKafka, plaintextKafka } from '@app/kafka';
import { createLogger } from '@app/logger';
import { OutboxRow } from '@app/outbox';
import { LocalKafkaCluster, waitFor } from '@app/testing';
import { Admin, Partitioners } from 'kafkajs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KafkaPublisher } from './kafka-publisher';

const TOPIC = 'relay-leader-change';
let sequence = 0;

function row(key: string, value: string): OutboxRow {
  return {
    id: String(++sequence),
    lane: 0,
    eventId: value,
    topic: TOPIC,
    key,
    value,
    headers: {},
    createdAt: new Date(),
  };
}

/** A key the publisher's partitioner (murmur2, as the Java client) puts on `partition` of a 2-partition topic. */
function keyOn(partition: number): string {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = [0, 1].map((partitionId) => ({
    partitionId,
    leader: 1,
    replicas: [1],
    isr: [1],
    partitionErrorCode: 0,
    offlineReplicas: [],
  }));
  for (let n = 0; ; n++) {
    const key = `ord_${n}`;
    if (partitioner({ topic: TOPIC, partitionMetadata, message: { key, value: null } }) === partition) return key;
  }
}

async function valuesInTopic(cluster: LocalKafkaCluster): Promise<string[]> {
  const consumer = createKafka('leader-change-reader', plaintextKafka(cluster.brokers)).consumer({
    groupId: `reader-${Date.now()}`,
  });
  const values: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  const admin = createKafka('leader-change-admin', plaintextKafka(cluster.brokers)).admin();
  await admin.connect();
  const total = (await admin.fetchTopicOffsets(TOPIC)).reduce((sum, partition) => sum + Number(partition.high), 0);
  await admin.disconnect();
  await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value!.toString()) });
  await waitFor(() => values.length >= total, { what: `the topic's ${total} messages`, timeoutMs: 30_000 });
  await consumer.disconnect();
  return values;
}

// kafkajs 2.2.4 keeps the answers of the brokers that succeeded across the retries of one send: when a partition's
// leader moves to such a broker, the retry never sends that partition again, and the send resolves as if it had
// (kafkajs #1303). Two brokers of their own, so that a leader can move between them.
describe('KafkaPublisher when a partition leader moves to a broker that already answered the send', () => {
  let dir: string;
  let cluster: LocalKafkaCluster;
  let admin: Admin;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-leader-change-'));
    cluster = await LocalKafkaCluster.start(2, dir, '256m');
    admin = createKafka('leader-change-test', plaintextKafka(cluster.brokers)).admin();
    await admin.connect();
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic: TOPIC,
          replicaAssignment: [
            { partition: 0, replicas: [1, 2] },
            { partition: 1, replicas: [2, 1] },
          ],
        },
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await admin?.disconnect();
    // Killed rather than stopped: a controlled shutdown of the last nodes waits for a quorum that is going away.
    if (cluster) await Promise.all([1, 2].map((node) => cluster.take(node, 'kill')));
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reports a batch published only once every row of it is on the brokers', async () => {
    const publisher = new KafkaPublisher(plaintextKafka(cluster.brokers), createLogger('relay', 'silent'));
    const [onFirst, onSecond] = [keyOn(0), keyOn(1)];
    // Partition 0 is led by broker 1 and partition 1 by broker 2; the publisher learns that here.
    await publisher.send([row(onFirst, 'before-0'), row(onSecond, 'before-1')]);

    // Partition 0 moves to broker 2 alone; the publisher's metadata still names broker 1.
    await admin.alterPartitionReassignments({
      topics: [{ topic: TOPIC, partitionAssignment: [{ partition: 0, replicas: [2] }] }],
    });
    await waitFor(
      async () => {
        const [topic] = (await admin.fetchTopicMetadata({ topics: [TOPIC] })).topics;
        const moved = topic.partitions.find((partition) => partition.partitionId === 0);
        const pending = await admin.listPartitionReassignments({ topics: [{ topic: TOPIC, partitions: [0] }] });
        return moved?.leader === 2 && moved.replicas.join() === '2' && pending.topics.length === 0;
      },
      { what: 'partition 0 led by broker 2 alone' },
    );

    // Broker 1 refuses partition 0 while broker 2 takes partition 1: a send that resolves must have resent
    // partition 0 to broker 2. (A refused send is retried, as the relay does after its rollback.)
    const rows = [row(onFirst, 'after-0'), row(onSecond, 'after-1')];
    for (let attempt = 1; ; attempt++) {
      const sent = await publisher.send(rows).then(
        () => true,
        (error: Error) => {
          if (attempt === 3) throw error;
          return false;
        },
      );
      if (sent) break;
    }
    await publisher.reset();
    expect(await valuesInTopic(cluster)).toEqual(
      expect.arrayContaining(['before-0', 'before-1', 'after-0', 'after-1']),
    );
  });
});
