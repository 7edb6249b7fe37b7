export * from './logger';
export * from './nest-logger';
export * from './logger.module';
export * from './error-message';
