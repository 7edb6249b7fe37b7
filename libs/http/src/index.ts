export * from './common-problem';
export * from './health.controller';
export * from './problem';
export * from './request-log';
