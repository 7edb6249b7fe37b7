export * from './delete-in-batches';
export * from './exclusive-job';
export * from './job-heartbeat.entity';
export * from './job-heartbeat.repository';
export * from './job-lock.repository';
export * from './job-schedule';
export * from './schedule-job';
