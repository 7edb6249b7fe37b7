export * from './dead-task-event';
export * from './lease-keeper';
export * from './lease-owner-session';
export * from './lease-owners';
export * from './task-dead-letters';
export * from './task-executor';
export * from './task-retry';
export * from './wakeup';
