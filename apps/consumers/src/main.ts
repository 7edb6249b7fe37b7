import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig } from '@app/config';
import { createLogger } from '@app/logger';
import { ConsumersEnv } from './config/consumers.env';
import { startConsumers } from './consumers.app';

bootstrap('consumers', async () => {
  const config = loadConfig(ConsumersEnv);
  const logger = createLogger('consumers', config.LOG_LEVEL);
  const consumers = await startConsumers(config, logger);
  logger.info({ groups: consumers.groups }, 'consumers started');
  closeOnSignals(consumers, (message) => logger.info(message));
});
