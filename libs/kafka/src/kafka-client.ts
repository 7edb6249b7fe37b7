import { Kafka, logLevel, LogEntry, RetryOptions } from 'kafkajs';
import { Logger } from 'pino';

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export interface KafkaClientOptions {
  /** How the client retries connecting and its requests (kafkajs's default: 5 retries, about 10 s in all). */
  retry?: RetryOptions;
}

/** A kafkajs client whose own log lines go through the app's structured logger. */
export function createKafka(
  clientId: string,
  brokers: string[],
  logger?: Logger,
  options: KafkaClientOptions = {},
): Kafka {
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: 3000,
    ...(options.retry && { retry: options.retry }),
    logLevel: logger ? logLevel.WARN : logLevel.NOTHING,
    logCreator: () => (entry: LogEntry) => {
      if (!logger) return;
      const { message, ...fields } = entry.log;
      logger[LEVELS[entry.level] ?? 'info']({ kafkajs: entry.namespace, ...fields }, message);
    },
  });
}
