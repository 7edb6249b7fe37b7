import { Kafka, logLevel } from 'kafkajs';

/** How an app names its brokers while it waits for them: where they are, and the variable that says so. */
export function describeKafka(brokers: string[]): string {
  return `Kafka at ${brokers.join(',')} (KAFKA_BROKERS)`;
}

/**
 * Resolves once a broker of `brokers` answers (one metadata round trip, no retries: the caller decides how to wait);
 * throws what stopped it otherwise.
 */
export async function checkKafka(brokers: string[]): Promise<void> {
  const admin = new Kafka({
    clientId: 'hookrail-check',
    brokers,
    connectionTimeout: 3000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Kafka did not answer a client that needed it: the message names the brokers and the variable that says where. */
export class KafkaUnavailableError extends Error {
  override name = 'KafkaUnavailableError';

  constructor(brokers: string[], cause: unknown) {
    super(`Kafka does not answer at KAFKA_BROKERS=${brokers.join(',')}: ${(cause as Error)?.message ?? cause}`, {
      cause,
    });
  }
}

/** True for a KafkaUnavailableError or an error of the Kafka client itself (kafkajs names each KafkaJS…). */
export function isKafkaUnavailable(error: unknown): boolean {
  return error instanceof KafkaUnavailableError || /^KafkaJS/.test((error as Error)?.name ?? '');
}
