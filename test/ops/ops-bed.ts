import { CONSUMER_GROUPS } from '@app/contracts';
import { ensureTopics } from '@app/kafka';
import { AppProcess, deleteTopics, freePort, TestProcesses, testKafka, uniqueName, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { DevEmailProvider } from '../../apps/consumers/src/notifier/dev-provider/email-provider.server';
import { Ingress, orderData, post, startIngress } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';
import { writeShopSources } from '../../bench/lib/ingress-fixtures';

export const ADMIN_TOKEN = 'admin-token-of-the-operations-tests';

/**
 * The whole system for the operations tests, on a database and a Kafka namespace of its own: the real ingress in this
 * process (charts sampled every second), the relay and the consumers as child processes (started on demand), and the
 * development email provider in this process, so that a test can make the notifier dead-letter and then fix it.
 */
export class OpsBed {
  readonly processes = new TestProcesses();
  readonly senderIds = new Map<string, string>();

  private constructor(
    readonly ingress: Ingress,
    readonly namespace: string,
    readonly topic: string,
    readonly secret: string,
    readonly emailProvider: DevEmailProvider,
    private readonly dir: string,
    readonly partitions: number,
  ) {}

  /** `partitions`: of the orders topic (1 by default); the consumers create their other topics with as many. */
  static async start(name: string, ingressEnv: Record<string, string> = {}, partitions = 1): Promise<OpsBed> {
    const namespace = `${uniqueName(name)}.`;
    const topic = `${namespace}shop.orders`;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const { dir, file: sources } = writeShopSources(secret, topic, 'hookrail-ops-');
    await ensureTopics(testKafka(`${name}-test`), [{ topic, numPartitions: partitions }]);
    const [ingress, emailProvider] = await Promise.all([
      startIngress({
        HOOKRAIL_SOURCES: sources,
        ADMIN_TOKEN,
        KAFKA_NAMESPACE: namespace,
        OPS_SAMPLE_INTERVAL_MS: '1000',
        ...ingressEnv,
      }),
      DevEmailProvider.start({ port: 0 }),
    ]);
    return new OpsBed(ingress, namespace, topic, secret, emailProvider, dir, partitions);
  }

  /** The relay as a process; resolves once it runs. */
  async startRelay(env: Record<string, string> = {}): Promise<AppProcess> {
    const relay = this.processes.start('relay', {
      DATABASE_URL: this.ingress.database.url,
      METRICS_PORT: String(await freePort()),
      RELAY_POLL_INTERVAL_MS: '200',
      ...env,
    });
    await relay.waitForLog('relay started');
    return relay;
  }

  /** The consumers app as a process (ledger and notifier by default, with the dead-letter store); resolves once it runs. */
  async startConsumers(env: Record<string, string> = {}): Promise<AppProcess> {
    const consumers = this.processes.start('consumers', {
      DATABASE_URL: this.ingress.database.url,
      CONSUMER_GROUPS: 'ledger,notifier',
      KAFKA_NAMESPACE: this.namespace,
      TOPIC_PARTITIONS: String(this.partitions),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      METRICS_PORT: String(await freePort()),
      EMAIL_PROVIDER_URL: this.emailProvider.url,
      ...env,
    });
    await consumers.waitForLog('consumers started');
    return consumers;
  }

  /** Sends a signed `shop.order.placed.v1` for `orderId` through the ingress (`data` overrides fields); the event id. */
  async send(orderId: string, data: Record<string, unknown> = {}): Promise<string> {
    const senderId = `msg_${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify({ type: 'shop.order.placed.v1', data: { ...orderData(orderId), ...data } });
    const response = await post(
      `${this.ingress.url}/webhooks/shop`,
      body,
      standardHeaders(this.secret, senderId, body),
    );
    if (response.status !== 202)
      throw new Error(`webhook answered ${response.status}: ${JSON.stringify(response.body)}`);
    const id = String(response.body.id);
    this.senderIds.set(id, senderId);
    return id;
  }

  /** An /admin call with the token; the JSON answer. */
  async admin<T = any>(route: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${this.ingress.adminUrl}/admin/${route}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers as Record<string, string>) },
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`/admin/${route} answered ${response.status}: ${JSON.stringify(body)}`);
    return body as T;
  }

  /** The dead letter of `eventId` in `group`, once the store has indexed it in the given status. */
  deadLetterOf(eventId: string, group: string, status = 'dead'): Promise<{ id: string; status: string }> {
    return waitFor(
      async () => {
        const { items } = await this.admin(`dead-letters?eventId=${eventId}&group=${group}`);
        return items.find((item: { status: string }) => item.status === status);
      },
      { what: `the ${status} dead letter of ${eventId} in ${group}`, timeoutMs: 45_000 },
    );
  }

  /** The operator plane's /metrics: jobs, backlog, parked keys, lag and owners. */
  async metrics(): Promise<string> {
    return (await fetch(`${this.ingress.adminUrl}/metrics`)).text();
  }

  async stop(): Promise<void> {
    await this.processes.killAll();
    await this.ingress?.close();
    await this.emailProvider?.close();
    rmSync(this.dir, { recursive: true, force: true });
    await deleteTopics([
      this.topic,
      ...CONSUMER_GROUPS.flatMap((group) => [`${this.namespace}${group}.dlt`, `${this.namespace}${group}.replay`]),
    ]).catch(() => undefined);
  }
}
