import { createKafka } from '@app/kafka';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Admin, Kafka, Partitioners, Producer } from 'kafkajs';
import { Logger } from 'pino';

export const ADMIN_KAFKA_BROKERS = Symbol('ADMIN_KAFKA_BROKERS');
/** KAFKA_NAMESPACE, as the consumers were started with: whose groups `/admin` shows. */
export const ADMIN_KAFKA_NAMESPACE = Symbol('ADMIN_KAFKA_NAMESPACE');

/**
 * The ingress's only Kafka clients, made on the first operator request that needs them (lag: an admin client;
 * replay: a producer) and never touched by the webhook path: intake still goes through the outbox alone.
 */
@Injectable()
export class AdminKafka implements OnApplicationShutdown {
  private readonly kafka: Kafka;
  private producerConnection?: Promise<Producer>;
  private adminConnection?: Promise<Admin>;

  constructor(@Inject(ADMIN_KAFKA_BROKERS) brokers: string[], @Inject(LOGGER) logger: Logger) {
    this.kafka = createKafka('hookrail-ingress-admin', brokers, logger);
  }

  producer(): Promise<Producer> {
    this.producerConnection ??= this.connect(
      this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      }),
      () => (this.producerConnection = undefined),
    );
    return this.producerConnection;
  }

  admin(): Promise<Admin> {
    this.adminConnection ??= this.connect(this.kafka.admin(), () => (this.adminConnection = undefined));
    return this.adminConnection;
  }

  private async connect<T extends Producer | Admin>(client: T, forget: () => void): Promise<T> {
    try {
      await client.connect();
      return client;
    } catch (error) {
      forget();
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = await Promise.allSettled(
      [this.producerConnection, this.adminConnection].filter(Boolean) as Array<Promise<Producer | Admin>>,
    );
    await Promise.allSettled(clients.map((client) => client.status === 'fulfilled' && client.value.disconnect()));
  }
}
