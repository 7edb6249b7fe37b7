import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig } from '@app/config';
import { LOGGER, Logger } from '@app/logger';
import { IngressEnv } from './config/ingress.env';
import { createIngressApp } from './ingress.app';

bootstrap('ingress', async () => {
  const config = loadConfig(IngressEnv);
  const app = await createIngressApp(config);
  await app.listen(config.PORT, '0.0.0.0');
  const logger = app.get<Logger>(LOGGER);
  logger.info({ port: config.PORT }, 'ingress started');
  closeOnSignals(app, (message) => logger.info(message));
});
