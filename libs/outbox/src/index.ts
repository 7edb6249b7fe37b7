export * from './outbox';
export * from './outbox-lanes';
export * from './outbox-message.entity';
