import { Kafka, logLevel } from 'kafkajs';

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
