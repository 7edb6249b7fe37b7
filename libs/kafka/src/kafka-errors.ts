import { HOST_NOT_IN_CERTIFICATE, isUntrustedCertificate } from '@app/config';
import { KafkaConnection, kafkaPrincipal } from './kafka-connection';

/** Kafka's authorization errors: what the principal was refused. */
const AUTHORIZATION: Record<string, string> = {
  TOPIC_AUTHORIZATION_FAILED: 'a topic',
  GROUP_AUTHORIZATION_FAILED: 'a consumer group',
  CLUSTER_AUTHORIZATION_FAILED: 'the cluster',
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: 'a transactional id',
};

interface ErrorLike {
  name?: string;
  message?: string;
  code?: string;
  type?: string;
  cause?: unknown;
  originalError?: unknown;
  /** kafkajs's aggregate errors (topic creation) hold one error per topic. */
  errors?: unknown[];
}

/**
 * The error and the errors it wraps (kafkajs keeps the first in `originalError`, Node in `cause`, an aggregate the
 * first of its `errors`).
 */
function chain(error: unknown): ErrorLike[] {
  const errors: ErrorLike[] = [];
  for (let current = error as ErrorLike | undefined; current && errors.length < 8;) {
    errors.push(current);
    current = (current.originalError ?? current.cause ?? current.errors?.[0]) as ErrorLike | undefined;
  }
  return errors;
}

/**
 * The one line that tells an operator why Kafka refused this connection, naming the variable to fix or the ACL to
 * grant (never a secret); undefined for an error that is not about credentials, certificates or permissions (the
 * broker is away: waiting for it is right).
 */
export function explainKafkaError(error: unknown, connection: KafkaConnection, subject?: string): string | undefined {
  const principal = kafkaPrincipal(connection);
  for (const cause of chain(error)) {
    if (cause.name === 'KafkaJSSASLAuthenticationError' || cause.type === 'SASL_AUTHENTICATION_FAILED')
      return (
        `Kafka refused the login of ${principal} (KAFKA_SASL_MECHANISM=${connection.KAFKA_SASL_MECHANISM ?? 'provider'}): ` +
        `check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD`
      );
    if (cause.type === 'UNSUPPORTED_SASL_MECHANISM' || cause.type === 'ILLEGAL_SASL_STATE')
      return `the brokers do not accept KAFKA_SASL_MECHANISM=${connection.KAFKA_SASL_MECHANISM} on this listener`;
    if (isUntrustedCertificate(cause.code))
      return (
        `the brokers' TLS certificate is not trusted (${cause.code}): KAFKA_TLS_CA_FILE` +
        `${connection.KAFKA_TLS_CA_FILE ? `=${connection.KAFKA_TLS_CA_FILE}` : ' (unset: the system trust store)'}` +
        ` must hold the authority that signed it`
      );
    if (cause.code === HOST_NOT_IN_CERTIFICATE)
      return `the brokers' TLS certificate does not name the host in KAFKA_BROKERS=${connection.KAFKA_BROKERS.join(',')}: ${cause.message}`;
    if (cause.type && AUTHORIZATION[cause.type])
      return (
        `Kafka refused ${principal} access to ${subject ?? AUTHORIZATION[cause.type]} (${cause.type}): grant the ACLs ` +
        `this program needs (npm run kafka:acls lists them; docs/operations.md, Production connections)`
      );
  }
  return undefined;
}
