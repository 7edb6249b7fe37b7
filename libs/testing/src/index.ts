export * from './test-database';
export * from './test-kafka';
export * from './wait-for';
export * from './app-process';
