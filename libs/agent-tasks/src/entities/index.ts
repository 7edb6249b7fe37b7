export * from './agent-task.entity';
