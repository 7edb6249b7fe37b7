export * from './dead-letter.entity';
export * from './parked-key.entity';
