/**
 * What operators read of the consumer groups (`@app/consumer-runtime/light`): their owners, lag and breakers, without
 * the runtime, its NestJS transport or its metrics, so that the CLI's commands start without loading them.
 */
export * from './breaker/dependency-breakers.repository';
export * from './consumer-states';
export * from './lag/consumer-lag.reader';
export * from './owners/consumer-group-owners.repository';
