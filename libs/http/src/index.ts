export * from './common-problem';
export * from './health.controller';
export * from './problem';
export * from './request-log';
export * from './bearer';
