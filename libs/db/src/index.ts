export * from './light';
export * from './database.module';
