export * from './dead-task-event';
export * from './lease-keeper';
export * from './task-dead-letters';
export * from './task-executor';
export * from './task-retry';
export * from './wakeup';
