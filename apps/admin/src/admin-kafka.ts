import { createKafka, KafkaConnection, KafkaUnavailableError } from '@app/kafka';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Admin, Kafka, Partitioners, Producer } from 'kafkajs';

export const ADMIN_KAFKA_BROKERS = Symbol('ADMIN_KAFKA_BROKERS');
/** KAFKA_NAMESPACE, as the consumers were started with: whose groups `/admin` shows. */
export const ADMIN_KAFKA_NAMESPACE = Symbol('ADMIN_KAFKA_NAMESPACE');

/**
 * The ingress's only Kafka clients, made on the first operator request that needs them (lag: an admin client;
 * replay: a producer) and never touched by the webhook path: intake still goes through the outbox alone. They retry
 * a connection twice, so that an operator hears within a second or two that Kafka does not answer
 * (KafkaUnavailableError: `503 kafka_unavailable`), and log nothing of their own: the answer says it.
 */
@Injectable()
export class AdminKafka implements OnApplicationShutdown {
  private readonly kafka: Kafka;
  private producerConnection?: Promise<Producer>;
  private adminConnection?: Promise<Admin>;

  constructor(@Inject(ADMIN_KAFKA_BROKERS) private readonly connection: KafkaConnection) {
    this.kafka = createKafka('hookrail-ingress-admin', connection, undefined, {
      retry: { retries: 2, initialRetryTime: 300 },
    });
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
      throw new KafkaUnavailableError(this.connection, error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = await Promise.allSettled(
      [this.producerConnection, this.adminConnection].filter(Boolean) as Array<Promise<Producer | Admin>>,
    );
    await Promise.allSettled(clients.map((client) => client.status === 'fulfilled' && client.value.disconnect()));
  }
}
