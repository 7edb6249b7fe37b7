import { ConfigError } from '@app/config';
import { explainKafkaError, KafkaConnection } from '@app/kafka/light';
import { databaseName } from '@app/db/light';
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
 * Why connecting to Postgres failed, in terms of DATABASE_URL: a database that does not exist or credentials it
 * refuses are configuration errors (exit 2: retrying will not help); anything else means it cannot be reached.
 */
export function postgresConnectError(error: unknown, url: string): Error {
  const { hostname, port } = new URL(url);
  const where = `${hostname}:${port || 5432}`;
  const code = (error as { code?: string }).code;
  if (code === '3D000')
    return new ConfigError(
      `DATABASE_URL names database ${databaseName(url)} on ${where}, which does not exist (npm run db:migrate creates and migrates it)`,
    );
  if (code === '28P01' || code === '28000')
    return new ConfigError(`Postgres at ${where} refuses the user of DATABASE_URL: ${errorMessage(error)}`);
  return new UnreachableError(`cannot reach Postgres at ${where} (DATABASE_URL): ${errorMessage(error)}`);
}

/** Credentials, a certificate or a permission that Kafka refuses are configuration; anything else, unreachable. */
export function kafkaConnectError(error: unknown, connection: KafkaConnection): Error {
  const refused = explainKafkaError(error, connection);
  if (refused) return new ConfigError(refused);
  const brokers = connection.KAFKA_BROKERS.join(',');
  return new UnreachableError(`cannot reach Kafka at KAFKA_BROKERS=${brokers}: ${errorMessage(error)}`);
}
