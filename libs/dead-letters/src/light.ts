/**
 * The dead letters as operators handle them (`@app/dead-letters/light`): listing, replay, purge and parked keys,
 * without the store's Kafka consumer, the retention job or the metrics, so that the CLI's commands start without them.
 */
export * from './dead-letter-audit';
export * from './dead-letter-filter';
export * from './dead-letter-message';
export * from './dead-letter-states';
export * from './dead-letters.repository';
export * from './parking/confirmation-required.error';
export * from './parking/dead-letter-id';
export * from './parking/parked-events.repository';
export * from './parking/parked-keys.repository';
export * from './parking/purge-parked-key.usecase';
export * from './replay/purge-dead-letters.usecase';
export * from './replay/replay-dead-letters.usecase';
