export * from './kafka-client';
export * from './topic-admin';
