import { DynamicModule, Global, Module } from '@nestjs/common';
import { Logger } from 'pino';

/** Injection token of the app's structured logger: `@Inject(LOGGER) logger: Logger`. */
export const LOGGER = Symbol('LOGGER');

@Global()
@Module({})
export class LoggerModule {
  static forRoot(logger: Logger): DynamicModule {
    return { module: LoggerModule, providers: [{ provide: LOGGER, useValue: logger }], exports: [LOGGER] };
  }
}
