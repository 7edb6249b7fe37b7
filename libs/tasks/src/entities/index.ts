export * from './task-row';
