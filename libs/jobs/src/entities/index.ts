export * from './job-heartbeat.entity';
export * from './job-schedule.entity';
