import { Kafka, logLevel, LogEntry, RetryOptions } from 'kafkajs';
import { Logger } from 'pino';
import { KafkaConnection, kafkaSecurity } from './kafka-connection';
import { quietIdleRequestQueues } from './request-queue-timers';

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export interface KafkaClientOptions {
  /** How the client retries connecting and its requests (kafkajs's default: 5 retries, about 10 s in all). */
  retry?: RetryOptions;
  /**
   * The client's one producer is idempotent with few retries and is never used again once a send gave up: a new
   * producer (a new producer id) takes over. kafkajs warns at every such producer's creation that limiting the retries
   * may invalidate its guarantees; that holds for a producer that sends again with the sequence numbers of a failed
   * send, which this one never does, so the warning is not written. Nothing else the client logs is affected.
   */
  producerReplacedAfterFailedSend?: boolean;
}

/** What kafkajs says when an idempotent producer is given fewer than unlimited retries (kafkajs 2.x). */
const LIMITED_RETRIES_WARNING = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';

/**
 * A kafkajs client for a connection (brokers, TLS, SASL), whose own log lines go through the app's structured logger.
 * Every Kafka client of hookrail is made here.
 */
export function createKafka(
  clientId: string,
  connection: KafkaConnection,
  logger?: Logger,
  options: KafkaClientOptions = {},
): Kafka {
  quietIdleRequestQueues();
  return new Kafka({
    clientId,
    ...kafkaSecurity(connection),
    connectionTimeout: 3000,
    ...(options.retry && { retry: options.retry }),
    logLevel: logger ? logLevel.WARN : logLevel.NOTHING,
    logCreator: () => (entry: LogEntry) => {
      if (!logger) return;
      const { message, ...fields } = entry.log;
      if (
        options.producerReplacedAfterFailedSend &&
        entry.namespace === 'Producer' &&
        message === LIMITED_RETRIES_WARNING
      )
        return;
      logger[LEVELS[entry.level] ?? 'info']({ kafkajs: entry.namespace, ...fields }, message);
    },
  });
}
