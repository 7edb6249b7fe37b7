/** The task library without what loads TypeORM and kafkajs (`@app/tasks/light`): for the relay, which loads neither. */
export * from './wakeup';
