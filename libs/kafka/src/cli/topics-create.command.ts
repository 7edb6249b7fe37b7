// npm run topics:create — create the project's topics (from libs/contracts) that are missing.
import 'reflect-metadata';
import { projectTopics } from '@app/contracts';
import { createKafka } from '../kafka-client';
import { ensureTopics } from '../topic-admin';

async function main(): Promise<void> {
  const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',').map((broker) => broker.trim());
  const partitions = Number(process.env.TOPIC_PARTITIONS || 6);
  if (!Number.isInteger(partitions) || partitions < 1) throw new Error('TOPIC_PARTITIONS must be a positive integer');
  const topics = projectTopics();
  const created = await ensureTopics(
    createKafka('hookrail-topics', brokers),
    topics.map((topic) => ({ topic, numPartitions: partitions })),
  );
  console.log(
    created.length
      ? `topics:create: created ${created.join(', ')} (${partitions} partitions each); ${topics.length - created.length} already existed`
      : `topics:create: all ${topics.length} topics already exist`,
  );
}

main().catch((error: Error) => {
  console.error(`topics:create: failed: ${error.message}`);
  process.exit(1);
});
