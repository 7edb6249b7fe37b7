import { Kafka, logLevel, LogEntry } from 'kafkajs';
import { Logger } from 'pino';

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** A kafkajs client whose own log lines go through the app's structured logger. */
export function createKafka(clientId: string, brokers: string[], logger?: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: 3000,
    logLevel: logger ? logLevel.WARN : logLevel.NOTHING,
    logCreator: () => (entry: LogEntry) => {
      if (!logger) return;
      const { message, ...fields } = entry.log;
      logger[LEVELS[entry.level] ?? 'info']({ kafkajs: entry.namespace, ...fields }, message);
    },
  });
}
