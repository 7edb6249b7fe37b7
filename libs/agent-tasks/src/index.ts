export * from './agent-task-status.repository';
export * from './agent-task-trail.repository';
export * from './agent-tasks.repository';
export * from './dead-agent-tasks';
export * from './entities';
export * from './find-agent-task';
