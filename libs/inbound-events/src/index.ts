export * from './inbound-event.repository';
