import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { IsReadableFile, NotWith } from './readable-file.validator';
import { Secret } from './secret';

export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/**
 * How every hookrail program reaches Kafka: where the brokers are, over TLS or not, and who it is (SASL). One
 * client factory (`createKafka`, libs/kafka) reads these; nothing else builds a Kafka client.
 */
export class KafkaEnv {
  /** The Kafka brokers to connect to, a comma-separated `host:port` list. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((broker) => broker.trim()) : value))
  @ArrayNotEmpty()
  @Matches(/^[A-Za-z0-9.\-\[\]:]+:\d{1,5}$/, { each: true, message: 'must be a comma-separated list of host:port' })
  KAFKA_BROKERS: string[] = ['127.0.0.1:9092'];

  /**
   * `true`: connect over TLS and verify the brokers' certificates (against KAFKA_TLS_CA_FILE, or the system's trust
   * store when it is not set) and their host names.
   */
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  KAFKA_TLS = false;

  /** A PEM file of the certificate authorities that signed the brokers' certificates (with KAFKA_TLS=true). */
  @IsOptional()
  @IsReadableFile()
  KAFKA_TLS_CA_FILE?: string;

  /** A PEM file with this program's client certificate, for brokers that ask for one (mutual TLS). */
  @ValidateIf((env: KafkaEnv) => env.KAFKA_TLS_CERT_FILE !== undefined || env.KAFKA_TLS_KEY !== undefined)
  @IsReadableFile({ message: 'must be a readable PEM file when KAFKA_TLS_KEY is set' })
  KAFKA_TLS_CERT_FILE?: string;

  /** The private key of KAFKA_TLS_CERT_FILE, PEM (a secret: give it as KAFKA_TLS_KEY_FILE). */
  @Secret()
  @ValidateIf((env: KafkaEnv) => env.KAFKA_TLS_CERT_FILE !== undefined || env.KAFKA_TLS_KEY !== undefined)
  @IsString({ message: 'is required with KAFKA_TLS_CERT_FILE (give the key as KAFKA_TLS_KEY_FILE)' })
  @Matches(/-----BEGIN [A-Z ]*PRIVATE KEY-----/, { message: 'must be a PEM private key' })
  KAFKA_TLS_KEY?: string;

  /** How this program logs in: `plain`, `scram-sha-256` or `scram-sha-512`; unset, it does not use SASL. */
  @IsOptional()
  @IsIn(KAFKA_SASL_MECHANISMS, { message: `must be one of ${KAFKA_SASL_MECHANISMS.join(', ')}` })
  KAFKA_SASL_MECHANISM?: KafkaSaslMechanism;

  /** The SASL user name (the principal `User:<name>` the ACLs name), with KAFKA_SASL_MECHANISM. */
  @ValidateIf((env: KafkaEnv) => env.KAFKA_SASL_MECHANISM !== undefined)
  @IsString({ message: 'is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_USERNAME?: string;

  /** The SASL password, with KAFKA_SASL_MECHANISM (a secret: give it as KAFKA_SASL_PASSWORD_FILE). */
  @Secret()
  @ValidateIf((env: KafkaEnv) => env.KAFKA_SASL_MECHANISM !== undefined)
  @IsString({ message: 'is required with KAFKA_SASL_MECHANISM' })
  KAFKA_SASL_PASSWORD?: string;

  /**
   * Another SASL mechanism (OAUTHBEARER, AWS IAM, ...): a JavaScript module whose `sasl()` export returns kafkajs's
   * `sasl` option (docs/operations.md, Production connections). Not with KAFKA_SASL_MECHANISM.
   */
  @IsOptional()
  @IsReadableFile()
  @NotWith('KAFKA_SASL_MECHANISM')
  KAFKA_SASL_PROVIDER?: string;
}
