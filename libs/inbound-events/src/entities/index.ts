export * from './inbound-event.entity';
