export * from './task-dead-letters';
export * from './wakeup';
