import { AppProcess, createTestTopic, deleteTopics, TopicReader, waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRelay } from '../../apps/relay/src/testing/relay-fixtures';
import { Ingress, orderData, post, secrets, startIngress } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';
import { CatalogValidators } from './catalog-validators';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/**
 * What a downstream team receives: events sent to the real ingress, through the outbox and a real relay process,
 * read back from Kafka, each validated against the committed catalogue (value and CloudEvents headers).
 */
describe('every message hookrail publishes validates against the exported catalogue', () => {
  let topic: string;
  const directory = mkdtempSync(path.join(os.tmpdir(), 'hookrail-catalog-'));
  let ingress: Ingress;
  let relay: AppProcess;
  let reader: TopicReader;

  beforeAll(async () => {
    topic = await createTestTopic('catalog-shop-orders');
    const sources = path.join(directory, 'sources.json');
    writeFileSync(
      sources,
      JSON.stringify([
        { name: 'shop', scheme: 'standard-webhooks', secrets: [secrets.standard[0]], topic, aggregateIdPath: 'data.orderId' },
      ]),
    );
    ingress = await startIngress({ HOOKRAIL_SOURCES: sources });
    relay = startRelay(ingress.database.url);
    reader = await TopicReader.start(topic);
  });

  afterAll(async () => {
    relay?.signal('SIGKILL');
    await relay?.exited;
    await reader?.stop();
    await ingress?.close();
    if (topic) await deleteTopics([topic]);
    rmSync(directory, { recursive: true, force: true });
  });

  async function send(type: string, data: object, headers: Record<string, string> = {}): Promise<string> {
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
    const response = await post(`${ingress.url}/webhooks/shop`, body, {
      ...standardHeaders(secrets.standard[0], `msg_${randomUUID()}`, body),
      ...headers,
    });
    expect(response.status).toBe(202);
    return response.body.id as string;
  }

  it('placed, paid and cancelled orders and an event of an unregistered type, value and headers', async () => {
    const order = orderData('ord_catalog');
    const ids = [
      await send('shop.order.placed.v1', order, { traceparent: TRACEPARENT }),
      await send('shop.order.paid.v1', { ...order, paymentId: 'pay_1', paidAt: new Date().toISOString() }),
      await send('shop.order.cancelled.v1', { ...order, note: null, reason: 'changed mind' }),
      await send('shop.customer.merged.v1', { orderId: 'ord_catalog', into: 'cus_2' }),
    ];

    await waitFor(() => reader.messages.length >= ids.length, { what: `${ids.length} messages on ${topic}` });
    const validators = new CatalogValidators();
    const report = reader.messages.map((message) => ({
      id: message.headers.ce_id,
      type: message.headers.ce_type,
      schema: validators.hasSchema(message.headers.ce_type),
      problems: validators.problems(message),
    }));
    expect(report).toEqual([
      { id: ids[0], type: 'shop.order.placed.v1', schema: true, problems: [] },
      { id: ids[1], type: 'shop.order.paid.v1', schema: true, problems: [] },
      { id: ids[2], type: 'shop.order.cancelled.v1', schema: true, problems: [] },
      { id: ids[3], type: 'shop.customer.merged.v1', schema: false, problems: [] },
    ]);
    expect(reader.messages[0].headers.ce_traceparent).toBe(TRACEPARENT);

    // Each event of a registered type names its catalogue entry, which the ingress serves; the others name none.
    expect(reader.messages.map((message) => message.headers.ce_dataschema)).toEqual([
      'urn:hookrail:event:shop.order.placed.v1',
      'urn:hookrail:event:shop.order.paid.v1',
      'urn:hookrail:event:shop.order.cancelled.v1',
      undefined,
    ]);
    const entry = await fetch(`${ingress.adminUrl}/catalog/schemas/${reader.messages[1].headers.ce_dataschema}`);
    expect(await entry.json()).toMatchObject({ $id: 'urn:hookrail:event:shop.order.paid.v1' });

    // The same check finds what a broken message would get wrong.
    const { ce_id: _id, ...withoutId } = reader.messages[1].headers;
    expect(
      validators.problems({
        ...reader.messages[1],
        headers: { ...withoutId, ce_type: 'shop.order.paid.v1' },
        value: JSON.stringify({ ...order, paymentId: 'pay_1' }),
      }),
    ).toEqual([
      "headers: must have required property 'ce_id'",
      "value: must have required property 'paidAt'",
    ]);
  });
});
