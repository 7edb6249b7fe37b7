export * from './outbox-message.entity';
