import { createKafka, ensureTopics, kafkaFromEnv, KafkaConnection, TopicSpec } from '@app/kafka';
import { SecureKafka } from '@app/testing';
import { Kafka } from 'kafkajs';

/**
 * Which broker a benchmark runs on, from BENCH_KAFKA: `plaintext` (the default: KAFKA_BROKERS, 127.0.0.1:9092) or
 * `secure`, the secure development broker (`npm run kafka:up:secure`: SASL_SSL, SCRAM-SHA-512, an ACL per program).
 */
export type BenchKafkaMode = 'plaintext' | 'secure';

export interface BenchKafka {
  mode: BenchKafkaMode;
  /** The benchmark's own client (topics, baselines): the environment's connection, or the administrator's. */
  kafka: Kafka;
  /**
   * KAFKA_* of an app's process: on the plaintext broker the consumers create their group's topics; on the secure one
   * each app logs in as its own principal and creates none.
   */
  appEnv(program: 'relay' | 'consumers'): Record<string, string>;
  /**
   * Creates `topics` as given; on the secure broker also the project's other topics in `namespace` and every
   * program's ACLs on them, as the administrator runs `topics:create` and `kafka:acls --apply`.
   */
  prepare(namespace: string, topics: TopicSpec[]): Promise<void>;
}

export function benchKafkaMode(value = process.env.BENCH_KAFKA || 'plaintext'): BenchKafkaMode {
  if (value !== 'plaintext' && value !== 'secure') throw new Error('BENCH_KAFKA must be "plaintext" or "secure"');
  return value;
}

export function benchKafka(clientId: string, mode = benchKafkaMode()): BenchKafka {
  if (mode === 'plaintext') {
    const connection: KafkaConnection = kafkaFromEnv();
    const kafka = createKafka(clientId, connection);
    return {
      mode,
      kafka,
      // The consumers make their group's other topics (dead letters, replays), as in the tests (cleanEnv).
      appEnv: () => ({ KAFKA_BROKERS: connection.KAFKA_BROKERS.join(','), KAFKA_CREATE_TOPICS: 'true' }),
      prepare: async (_namespace, topics) => void (await ensureTopics(kafka, topics)),
    };
  }
  const secure = SecureKafka.start();
  const kafka = createKafka(clientId, kafkaFromEnv(secure.env('admin')));
  return {
    mode,
    kafka,
    appEnv: (program) => ({ ...secure.env(`hookrail-${program}`), KAFKA_CREATE_TOPICS: 'false' }),
    prepare: async (namespace, topics) => {
      await ensureTopics(kafka, topics);
      await secure.asAdmin('libs/kafka/src/cli/topics-create.command.ts', namespace);
      await secure.asAdmin('libs/kafka/src/cli/kafka-acls.command.ts', namespace, ['--apply']);
    },
  };
}
