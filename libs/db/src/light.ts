/**
 * The database library without its NestJS module (`@app/db/light`): DataSources, pools, statements and migrations,
 * for processes that start without NestJS (the CLI).
 */
export * from './data-source';
export * from './database-url';
export * from './schema-drift';
export * from './migrate';
export * from './pg-errors';
export * from './postgres-refusals';
export * from './migrations';
export * from './pool-query';
export * from './query-rows';
export * from './statement-name';
export * from './schema-status';
