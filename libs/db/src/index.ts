export * from './data-source';
export * from './database-url';
export * from './schema-drift';
export * from './migrate';
export * from './pg-errors';
export * from './database.module';
export * from './migrations';
export * from './pool-query';
