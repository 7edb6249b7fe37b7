import { connect } from '@app/db';
import {
  createTestDatabase,
  freePort,
  OTLP_SPAN_KIND,
  OtlpReceiver,
  ReceivedSpan,
  TestDatabase,
  TestProcesses,
  uniqueName,
  waitFor,
} from '@app/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { WebhookReceiver } from '../../apps/consumers/src/webhooks/testing/webhook-receiver';
import { addEndpoint, webhooksEnv } from '../../apps/consumers/src/webhooks/testing/webhooks-fixtures';
import { orderData, post } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';

/** The three apps start slowly on a busy machine (topics, group joins). */
const TEST_TIMEOUT_MS = 180_000;

/**
 * OpenTelemetry on, through the standard variables only: one event's spans from the ingress, the relay and the
 * consumers (each a process of its own) reach an OTLP receiver as one trace, continuing the sender's `traceparent`:
 * the ingress's server span is its child, the outbox write's span the server span's, the relay's send span the
 * outbox write's, each group's process span the send span's, and the outbound delivery's POST the webhooks group's.
 */
describe('OpenTelemetry traces across the ingress, the relay and the consumers', () => {
  const processes = new TestProcesses();
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const namespace = `${uniqueName('traces')}.`;
  const topic = `${namespace}shop.orders`;
  let otlp: OtlpReceiver;
  let receiver: WebhookReceiver;
  let database: TestDatabase;
  let dataSource: DataSource;
  let dir: string;

  beforeAll(async () => {
    otlp = await OtlpReceiver.start();
    receiver = await WebhookReceiver.start();
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'traces-test', poolSize: 2 });
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-traces-'));
  });

  afterAll(async () => {
    await processes.killAll();
    await receiver?.close();
    await otlp?.stop();
    await dataSource?.destroy();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "links one event's spans from three processes into the sender's trace",
    async () => {
      const sources = path.join(dir, 'sources.json');
      writeFileSync(
        sources,
        JSON.stringify([
          { name: 'shop', scheme: 'standard-webhooks', secrets: [secret], topic, aggregateIdPath: 'data.orderId' },
        ]),
      );
      await addEndpoint(dataSource, `http://127.0.0.1:${receiver.port}/hooks/orders`);
      // Tracing is turned on by the standard variables alone; spans are sent at most 100 ms after they end.
      const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
      const port = await freePort();
      const ingress = processes.start('ingress', {
        ...tracing,
        DATABASE_URL: database.url,
        HOOKRAIL_SOURCES: sources,
        ADMIN_TOKEN: 'a'.repeat(32),
        KAFKA_NAMESPACE: namespace,
        PORT: String(port),
      });
      const relay = processes.start('relay', {
        ...tracing,
        DATABASE_URL: database.url,
        METRICS_PORT: '0',
        RELAY_POLL_INTERVAL_MS: '200',
      });
      const consumers = processes.start('consumers', {
        ...webhooksEnv(),
        ...tracing,
        DATABASE_URL: database.url,
        CONSUMER_GROUPS: 'analytics,webhooks',
        KAFKA_NAMESPACE: namespace,
        METRICS_PORT: '0',
      });
      await Promise.all([
        ingress.waitForLog('ingress started', 90_000),
        relay.waitForLog('relay started', 90_000),
        consumers.waitForLog('consumers started', 120_000),
      ]);

      const senderTrace = randomBytes(16).toString('hex');
      const senderSpan = randomBytes(8).toString('hex');
      const body = JSON.stringify({
        type: 'shop.order.placed.v1',
        data: orderData(`ord_${randomBytes(4).toString('hex')}`),
      });
      const answer = await post(`http://127.0.0.1:${port}/webhooks/shop`, body, {
        ...standardHeaders(secret, `msg_${randomBytes(8).toString('hex')}`, body),
        traceparent: `00-${senderTrace}-${senderSpan}-01`,
      });
      expect(answer.status).toBe(202);
      const eventId = String(answer.body.id);

      const ofTrace = () => otlp.spans.filter((span) => span.traceId === senderTrace);
      const find = (kind: number, predicate: (span: ReceivedSpan) => boolean = () => true) =>
        ofTrace().filter((span) => span.kind === kind && predicate(span));
      await waitFor(
        () =>
          find(OTLP_SPAN_KIND.consumer).length >= 2 &&
          find(OTLP_SPAN_KIND.client).length >= 1 &&
          find(OTLP_SPAN_KIND.producer).length >= 2 &&
          find(OTLP_SPAN_KIND.server).length >= 1,
        { what: 'the spans of the event from the three processes', timeoutMs: 60_000 },
      );

      expect(otlp.refused).toEqual([]);
      // Every span of the event (all but the server span name it) is in the sender's trace.
      const ofEvent = otlp.spans.filter((span) => span.attributes['messaging.message.id'] === eventId);
      expect(ofEvent.length).toBeGreaterThanOrEqual(5);
      expect(ofEvent.filter((span) => span.traceId !== senderTrace)).toEqual([]);
      expect(new Set(ofTrace().map((span) => span.service))).toEqual(
        new Set(['hookrail-ingress', 'hookrail-relay', 'hookrail-consumers']),
      );

      // The ingress: its server span is the sender's span's child; the outbox write's span is the server span's.
      const [server] = find(OTLP_SPAN_KIND.server);
      expect(server).toMatchObject({
        service: 'hookrail-ingress',
        name: 'POST /webhooks/:source',
        parentSpanId: senderSpan,
        attributes: expect.objectContaining({ 'http.request.method': 'POST', 'http.response.status_code': 202 }),
      });
      const [create] = find(OTLP_SPAN_KIND.producer, (span) => span.service === 'hookrail-ingress');
      expect(create).toMatchObject({
        name: `create ${topic}`,
        parentSpanId: server.spanId,
        attributes: expect.objectContaining({
          'messaging.system': 'kafka',
          'messaging.operation.type': 'create',
          'messaging.destination.name': topic,
          'messaging.message.id': eventId,
        }),
      });

      // The relay: one send span for the message, the outbox write's child.
      const sends = find(OTLP_SPAN_KIND.producer, (span) => span.service === 'hookrail-relay');
      expect(sends).toHaveLength(1);
      const [send] = sends;
      expect(send).toMatchObject({
        name: `send ${topic}`,
        parentSpanId: create.spanId,
        attributes: expect.objectContaining({
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.destination.name': topic,
          'messaging.message.id': eventId,
          'messaging.kafka.message.key': expect.any(String),
        }),
      });

      // The consumers: one process span per group, each the relay's send span's child.
      const processed = find(OTLP_SPAN_KIND.consumer);
      expect(processed.map((span) => span.attributes['messaging.consumer.group.name']).sort()).toEqual([
        `${namespace}analytics`,
        `${namespace}webhooks`,
      ]);
      for (const span of processed)
        expect(span).toMatchObject({
          service: 'hookrail-consumers',
          name: `process ${topic}`,
          parentSpanId: send.spanId,
          attributes: expect.objectContaining({
            'messaging.system': 'kafka',
            'messaging.operation.type': 'process',
            'messaging.destination.name': topic,
            'messaging.destination.partition.id': expect.any(String),
            'messaging.kafka.offset': expect.any(Number),
            'messaging.kafka.message.key': send.attributes['messaging.kafka.message.key'],
            'messaging.message.id': eventId,
          }),
        });

      // The outbound delivery: a client span, the webhooks group's child; the receiver got its context.
      const webhooksSpan = processed.find(
        (span) => span.attributes['messaging.consumer.group.name'] === `${namespace}webhooks`,
      )!;
      const [delivery] = find(OTLP_SPAN_KIND.client);
      expect(delivery).toMatchObject({
        service: 'hookrail-consumers',
        name: 'POST',
        parentSpanId: webhooksSpan.spanId,
        attributes: expect.objectContaining({
          'http.request.method': 'POST',
          'http.response.status_code': 200,
          'server.address': '127.0.0.1',
          'url.full': `http://127.0.0.1:${receiver.port}/hooks/orders`,
        }),
      });
      const request = await waitFor(() => receiver.requests.find((r) => r.webhookId === eventId), {
        what: 'the outbound delivery',
      });
      expect(request.headers.traceparent).toBe(`00-${senderTrace}-${delivery.spanId}-01`);
    },
    TEST_TIMEOUT_MS,
  );
});
