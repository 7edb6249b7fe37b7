export * from './saga-step.entity';
export * from './saga.entity';
