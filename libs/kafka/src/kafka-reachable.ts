import { ConfigError } from '@app/config';
import { createKafka } from './kafka-client';
import { KafkaConnection } from './kafka-connection';
import { explainKafkaError } from './kafka-errors';

/** How an app names its brokers while it waits for them: where they are, and the variable that says so. */
export function describeKafka(connection: KafkaConnection): string {
  const security = connection.KAFKA_TLS ? (connection.KAFKA_SASL_MECHANISM ? ' over TLS with SASL' : ' over TLS') : '';
  return `Kafka at ${connection.KAFKA_BROKERS.join(',')}${security} (KAFKA_BROKERS)`;
}

/**
 * Resolves once a broker answers (one metadata round trip, no retries: the caller decides how to wait); throws what
 * stopped it otherwise. Credentials, a certificate or an ACL that Kafka refuses throw a ConfigError with the one line
 * that says which: waiting would not change them.
 */
export async function checkKafka(connection: KafkaConnection): Promise<void> {
  const admin = createKafka('hookrail-check', connection, undefined, { retry: { retries: 0 } }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (error) {
    const refused = explainKafkaError(error, connection);
    throw refused ? new ConfigError(refused) : error;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Kafka did not answer a client that needed it: the message names the brokers and the variable that says where. */
export class KafkaUnavailableError extends Error {
  override name = 'KafkaUnavailableError';

  constructor(connection: KafkaConnection, cause: unknown) {
    const brokers = connection.KAFKA_BROKERS;
    super(
      explainKafkaError(cause, connection) ??
        `Kafka does not answer at KAFKA_BROKERS=${brokers.join(',')}: ${(cause as Error)?.message ?? cause}`,
      {
        cause,
      },
    );
  }
}

/** True for a KafkaUnavailableError or an error of the Kafka client itself (kafkajs names each KafkaJS…). */
export function isKafkaUnavailable(error: unknown): boolean {
  return error instanceof KafkaUnavailableError || /^KafkaJS/.test((error as Error)?.name ?? '');
}
