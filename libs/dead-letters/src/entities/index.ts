export * from './dead-letter-audit.entity';
export * from './dead-letter.entity';
export * from './parked-key.entity';
