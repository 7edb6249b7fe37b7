export * from './test-database';
export * from './test-kafka';
export * from './wait-for';
export * from './app-process';
export * from './kafka-proxy';
export * from './topic-reader';
export * from './free-port';
export * from './test-data-source';
