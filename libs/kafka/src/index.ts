export * from './consumer-lag';
export * from './kafka-client';
export * from './topic-admin';
export * from './kafka-reachable';
