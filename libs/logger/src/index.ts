export * from './light';
export * from './nest-logger';
export * from './logger.module';
