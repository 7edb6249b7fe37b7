export * from './consumer-lag';
export * from './kafka-client';
export * from './topic-admin';
export * from './subscribed-round-robin.assigner';
export * from './lazy-admin';
