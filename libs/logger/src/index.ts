export * from './logger';
export * from './nest-logger';
export * from './logger.module';
