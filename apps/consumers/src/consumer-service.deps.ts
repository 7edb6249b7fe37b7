import { ConsumerMetrics } from '@app/consumer-runtime';
import { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { ConsumersEnv } from './config/consumers.env';

/**
 * What a consumer service's providers may inject besides LOGGER, built once per group by startConsumers: services
 * whose work reaches past the handler's transaction (an intent committed before an email, a worker pool) need them.
 */
export class ConsumerServiceDeps {
  constructor(
    readonly group: string,
    readonly config: ConsumersEnv,
    readonly dataSource: DataSource,
    readonly kafka: Kafka,
    readonly metrics: ConsumerMetrics,
    /** The group's dead-letter topic as this deployment names it. */
    readonly dltTopic: string,
  ) {}
}
