import { Closable } from '@app/config';
import { CloudEvent, SHOP_ORDER_PLACED_V1, TOPICS } from '@app/contracts';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import { addToOutbox, notifyOutbox, OutboxNotifier } from '@app/outbox';
import { SagaHistoryEntry, SagaState, SagaViews } from '@app/saga';
import {
  AppProcess,
  cleanEnv,
  createTestDatabase,
  TestDatabase,
  TEST_BROKERS,
  TestProcesses,
  testKafka,
  uniqueName,
  waitFor,
} from '@app/testing';
import { Kafka } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConsumersConfig } from '../../config/load-consumers-config';
import { startConsumers } from '../../consumers.app';
import { DevPaymentProvider } from '../../payments/dev-provider/payment-provider.server';
import { DevShippingProvider } from '../../shipping/dev-provider/shipping-provider.server';

export const SAGA_GROUPS = 'fulfilment,inventory,payments,shipping';

/** A saga row as the tests look at it. */
export interface SagaSnapshot {
  id: string;
  state: SagaState;
  step: string;
  failure: string | null;
  lastError: string | null;
}

/**
 * What every saga test file owns: a database, a Kafka namespace, a relay process, and the development payment and
 * shipping providers (in this process, so that tests read their counts and change their behaviour). The consumers
 * (coordinator and participants) run in this process or as child processes.
 */
export class SagaTestBed {
  readonly kafka: Kafka = testKafka('saga-test');
  readonly namespace: string;
  readonly processes = new TestProcesses();
  private readonly notifier: OutboxNotifier;
  private relay?: AppProcess;
  private consumers: Closable[] = [];

  private constructor(
    name: string,
    readonly database: TestDatabase,
    readonly dataSource: DataSource,
    readonly payments: DevPaymentProvider,
    readonly shipping: DevShippingProvider,
  ) {
    this.namespace = `${uniqueName(name)}.`;
    this.notifier = new OutboxNotifier((lanes) => notifyOutbox(dataSource, lanes));
  }

  static async start(name: string): Promise<SagaTestBed> {
    const database = await createTestDatabase();
    const dataSource = await connect({ url: database.url, applicationName: `${name}-test`, poolSize: 4 });
    const [payments, shipping] = await Promise.all([DevPaymentProvider.start(), DevShippingProvider.start()]);
    return new SagaTestBed(name, database, dataSource, payments, shipping);
  }

  /** The relay process over the bed's database (publishes whatever topic each outbox row names). */
  async startRelay(env: Record<string, string> = {}): Promise<void> {
    this.relay = AppProcess.start(
      'relay',
      cleanEnv({
        DATABASE_URL: this.database.url,
        KAFKA_BROKERS: TEST_BROKERS.join(','),
        METRICS_PORT: '0',
        RELAY_LOOPS: '1',
        ...env,
      }),
    );
    await this.relay.waitForLog('relay started');
  }

  /** The consumers app's environment for the saga's groups. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL: this.database.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS || '127.0.0.1:9092',
      CONSUMER_GROUPS: SAGA_GROUPS,
      KAFKA_NAMESPACE: this.namespace,
      METRICS_PORT: '0',
      KAFKA_CREATE_TOPICS: 'true',
      TOPIC_PARTITIONS: '1',
      PAYMENT_PROVIDER_URL: this.payments.url,
      SHIPPING_PROVIDER_URL: this.shipping.url,
      SAGA_DEADLINES_INTERVAL_MS: '200',
      ...extra,
    };
  }

  /** The consumers app inside the test process. */
  async startConsumers(extra: Record<string, string> = {}): Promise<Closable> {
    const consumers = await startConsumers(loadConsumersConfig(this.env(extra)), createLogger('consumers', 'silent'));
    this.consumers.push(consumers);
    return consumers;
  }

  /** The consumers app as a child process (for kill -9), without a dead-letter store and with a short session. */
  startConsumersProcess(extra: Record<string, string>): AppProcess {
    return this.processes.start('consumers', {
      ...this.env({ DEAD_LETTER_STORE: 'false', KAFKA_SESSION_TIMEOUT_MS: '6000' }),
      ...extra,
    });
  }

  topic(name: string): string {
    return `${this.namespace}${name}`;
  }

  async setStock(sku: string, available: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO stock (sku, available) VALUES ($1, $2) ON CONFLICT (sku) DO UPDATE SET available = $2`,
      [sku, available],
    );
  }

  async stock(sku: string): Promise<number> {
    const rows = await this.dataSource.query(`SELECT available FROM stock WHERE sku = $1`, [sku]);
    return rows[0]?.available;
  }

  /** `shop.order.placed.v1` events, written to the outbox `perTransaction` at a time, as the ingress would. */
  async placeOrders(events: CloudEvent[], perTransaction = 100): Promise<void> {
    for (let start = 0; start < events.length; start += perTransaction) {
      await this.dataSource.transaction(async (manager) => {
        for (const event of events.slice(start, start + perTransaction))
          await addToOutbox(manager, this.topic(TOPICS.shopOrders), event);
      });
      this.notifier.committed();
    }
  }

  /** The saga of an order, once there is one. */
  async saga(orderId: string): Promise<SagaSnapshot | undefined> {
    const [saga] = await SagaViews.list(this.dataSource, { correlationId: orderId }, 1);
    return (
      saga && { id: saga.id, state: saga.state, step: saga.step, failure: saga.failure, lastError: saga.lastError }
    );
  }

  /** Waits until the order's saga is in `state`. */
  async sagaIn(orderId: string, state: SagaState, timeoutMs = 30_000): Promise<SagaSnapshot> {
    let last: SagaSnapshot | undefined;
    try {
      return await waitFor(
        async () => {
          last = await this.saga(orderId);
          return last?.state === state ? last : undefined;
        },
        { what: `the saga of ${orderId} ${state}`, timeoutMs, intervalMs: 100 },
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; it is ${JSON.stringify(last)}`);
    }
  }

  /** The history as `event step/phase → state`. */
  async history(sagaId: string): Promise<string[]> {
    return (await SagaViews.history(this.dataSource, sagaId)).map(describeEntry);
  }

  /** Outbox rows of the order's key on the participants' command topics: the commands the saga sent. */
  async commandsSent(orderId: string): Promise<string[]> {
    const rows: Array<{ type: string }> = await this.dataSource.query(
      `SELECT headers->>'ce_type' AS type FROM outbox WHERE key = $1 AND topic = ANY($2) ORDER BY id`,
      [
        orderId,
        [TOPICS.inventoryCommands, TOPICS.paymentsCommands, TOPICS.shippingCommands].map((topic) => this.topic(topic)),
      ],
    );
    return rows.map((row) => row.type);
  }

  /** The outbox rows the saga published on `shop.orders` (its outcomes), as CloudEvent types and data. */
  async outcomes(orderId: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
    const rows: Array<{ type: string; value: string }> = await this.dataSource.query(
      `SELECT headers->>'ce_type' AS type, value FROM outbox
        WHERE key = $1 AND topic = $2 AND headers->>'ce_type' <> $3 ORDER BY id`,
      [orderId, this.topic(TOPICS.shopOrders), SHOP_ORDER_PLACED_V1],
    );
    return rows.map((row) => ({ type: row.type, data: JSON.parse(row.value) }));
  }

  async stop(): Promise<void> {
    await Promise.all(this.consumers.map((consumers) => consumers.close()));
    this.relay?.signal('SIGTERM');
    await this.relay?.exited;
    await this.processes.killAll();
    await Promise.all([this.payments.close(), this.shipping.close()]);
    await this.dataSource.destroy();
    await this.database.drop();
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(this.namespace));
      if (topics.length) await admin.deleteTopics({ topics, timeout: 10_000 });
    } finally {
      await admin.disconnect();
    }
  }
}

export function describeEntry(entry: SagaHistoryEntry): string {
  return `${entry.event} ${entry.step}/${entry.phase} → ${entry.state}`;
}

/** A valid `shop.order.placed.v1` for the saga tests. */
export function placedOrder(
  orderId: string,
  {
    amount = 4200,
    lines = [{ sku: 'book', quantity: 2 }],
  }: { amount?: number; lines?: Array<{ sku: string; quantity: number }> } = {},
): CloudEvent {
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: '/webhooks/shop',
    type: SHOP_ORDER_PLACED_V1,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: orderId,
    data: {
      orderId,
      customer: { id: `cus_${orderId}`, email: 'ada@example.com' },
      amount,
      currency: 'EUR',
      lineItems: lines.map((line) => ({ ...line, unitAmount: Math.floor(amount / lines.length / line.quantity) })),
    },
  };
}
