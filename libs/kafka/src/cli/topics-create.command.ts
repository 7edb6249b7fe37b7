// npm run topics:create — create the project's topics (from libs/contracts) that are missing, each name prefixed
// with KAFKA_NAMESPACE, as the consumers app names the topics it subscribes to.
import 'reflect-metadata';
import { loadConfig } from '@app/config';
import { projectTopics } from '@app/contracts';
import { createKafka } from '../kafka-client';
import { explainKafkaError } from '../kafka-errors';
import { ensureTopics } from '../topic-admin';
import { TopicsCreateEnv } from './topics-create.env';

async function main(): Promise<void> {
  const env = loadConfig(TopicsCreateEnv);
  const partitions = env.TOPIC_PARTITIONS;
  const topics = projectTopics().map((topic) => `${env.KAFKA_NAMESPACE}${topic}`);
  const created = await ensureTopics(
    createKafka('hookrail-topics', env),
    topics.map((topic) => ({ topic, numPartitions: partitions })),
  ).catch((error: Error) => {
    throw new Error(explainKafkaError(error, env, 'create topics') ?? error.message);
  });
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
