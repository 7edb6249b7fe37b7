export * from './outbox';
export * from './outbox-lanes';
export * from './outbox-notify';
export * from './outbox-row';
export * from './outbox.repository';
export * from './outbox.metrics';
