export * from './light';
export * from './retention/dead-letter-retention';
export * from './store/dead-letter-store';
export * from './store/dead-letter-store.env';
export * from './store/start-dead-letter-store';
export * from './parking/parked-key.metrics';
