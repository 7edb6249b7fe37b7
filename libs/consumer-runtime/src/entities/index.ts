export * from './consumer-event-status.entity';
export * from './consumer-group-owner.entity';
export * from './dependency-breaker.entity';
export * from './processed-event.entity';
