import { Kafka } from 'kafkajs';

/** After a run: the topics it created under its namespace go (best effort: a broker already down is no error). */
export async function deleteTopicsStartingWith(kafka: Kafka, prefix: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  await admin
    .deleteTopics({ topics: (await admin.listTopics()).filter((name) => name.startsWith(prefix)) })
    .catch(() => undefined);
  await admin.disconnect();
}
