export * from './consumer-lag';
export * from './kafka-client';
export * from './kafka-reachable';
export * from './lazy-admin';
export * from './subscribed-round-robin.assigner';
export * from './topic-admin';
