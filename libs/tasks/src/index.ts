export * from './task-dead-letters';
export * from './wakeup';
export * from './dead-task-event';
