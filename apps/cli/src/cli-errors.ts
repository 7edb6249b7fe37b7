import { ConfigError } from '@app/config';
import { explainKafkaError, KafkaConnection } from '@app/kafka/light';
import { databaseAddress, explainPostgresError } from '@app/db/light';
import { errorMessage } from '@app/logger/light';

/** A command line the CLI cannot run as written: an unknown command, a missing or malformed argument (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command was understood but cannot be done: nothing has that id, or its state refuses it (exit 1). */
export class CommandRefusedError extends Error {
  override name = 'CommandRefusedError';
}

/** A dependency the command needs does not answer; the message names it and the variable that points at it (exit 1). */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
}

/**
 * Why connecting to Postgres failed, in terms of DATABASE_URL: a refusal that retrying will not mend (a database that
 * does not exist, credentials or a certificate it refuses) is configuration (exit 2); anything else, unreachable.
 */
export function postgresConnectError(error: unknown, url: string): Error {
  const refused = explainPostgresError(error, url);
  if (refused) return new ConfigError(refused);
  return new UnreachableError(
    `cannot reach Postgres at ${databaseAddress(url)} (DATABASE_URL): ${errorMessage(error)}`,
  );
}

/** Credentials, a certificate or a permission that Kafka refuses are configuration; anything else, unreachable. */
export function kafkaConnectError(error: unknown, connection: KafkaConnection): Error {
  const refused = explainKafkaError(error, connection);
  if (refused) return new ConfigError(refused);
  const brokers = connection.KAFKA_BROKERS.join(',');
  return new UnreachableError(`cannot reach Kafka at KAFKA_BROKERS=${brokers}: ${errorMessage(error)}`);
}
