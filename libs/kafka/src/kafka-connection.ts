import { readFileSync } from 'node:fs';
import { KafkaEnv, loadConfig } from '@app/config';
import type { KafkaConfig, SASLOptions } from 'kafkajs';

/** How to reach Kafka, as every program's configuration gives it (KafkaEnv: brokers, TLS, SASL). */
export type KafkaConnection = Pick<KafkaEnv, 'KAFKA_BROKERS'> & Partial<Omit<KafkaEnv, 'KAFKA_BROKERS'>>;

/** A connection to brokers that need neither TLS nor SASL (the development broker, tests on it). */
export const plaintextKafka = (brokers: string[]): KafkaConnection => ({ KAFKA_BROKERS: brokers });

/** What a module named by KAFKA_SASL_PROVIDER exports: kafkajs's `sasl` option, for any mechanism it supports. */
export interface KafkaSaslProvider {
  sasl(connection: KafkaConnection): SASLOptions;
}

/**
 * kafkajs's `brokers`, `ssl` and `sasl` options for a connection: certificates and keys read from their files now (a
 * client is made at start, so a file that went away fails the start), the system's trust store when no CA is named.
 */
export function kafkaSecurity(connection: KafkaConnection): Pick<KafkaConfig, 'brokers' | 'ssl' | 'sasl'> {
  return {
    brokers: connection.KAFKA_BROKERS,
    ...(connection.KAFKA_TLS && { ssl: tlsOptions(connection) }),
    ...(saslOptions(connection) && { sasl: saslOptions(connection) }),
  };
}

function tlsOptions(connection: KafkaConnection): KafkaConfig['ssl'] {
  const { KAFKA_TLS_CA_FILE: caFile, KAFKA_TLS_CERT_FILE: certFile, KAFKA_TLS_KEY: key } = connection;
  if (!caFile && !certFile) return true;
  return {
    ...(caFile && { ca: [readFileSync(caFile, 'utf8')] }),
    ...(certFile && { cert: readFileSync(certFile, 'utf8'), key }),
  };
}

function saslOptions(connection: KafkaConnection): SASLOptions | undefined {
  if (connection.KAFKA_SASL_PROVIDER) {
    const provider = require(connection.KAFKA_SASL_PROVIDER) as Partial<KafkaSaslProvider>;
    if (typeof provider.sasl !== 'function')
      throw new Error(`KAFKA_SASL_PROVIDER ${connection.KAFKA_SASL_PROVIDER} exports no sasl() function`);
    return provider.sasl(connection);
  }
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = connection;
  if (!mechanism) return undefined;
  return { mechanism, username: username ?? '', password: password ?? '' } as SASLOptions;
}

/** Who a connection logs in as, for messages: `User:<name>`, or what else identifies it. */
export function kafkaPrincipal(connection: KafkaConnection): string {
  if (connection.KAFKA_SASL_USERNAME) return `User:${connection.KAFKA_SASL_USERNAME}`;
  if (connection.KAFKA_SASL_PROVIDER) return `the principal of KAFKA_SASL_PROVIDER`;
  if (connection.KAFKA_TLS_CERT_FILE) return `the principal of KAFKA_TLS_CERT_FILE`;
  return 'User:ANONYMOUS';
}

/** The connection the environment describes (KafkaEnv's variables), for tools and tests without a config of their own. */
export function kafkaFromEnv(env: NodeJS.ProcessEnv = process.env): KafkaConnection {
  return loadConfig(KafkaEnv, env);
}
