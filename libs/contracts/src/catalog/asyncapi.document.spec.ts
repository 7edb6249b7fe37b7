import { Parser } from '@asyncapi/parser';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { asyncApiDocument, forDeployment, inlineDefinitions } from './asyncapi.document';
import { catalogChannels, CatalogGroup } from './catalog-channels';
import { eventSchemas } from './event-schemas';

const groups: CatalogGroup[] = [
  {
    group: 'ledger',
    topics: ['shop.orders'],
    owner: { team: 'finance', contact: 'finance@example.com' },
    handles: ['shop.order.placed.v1', 'shop.order.paid.v1'],
  },
  {
    group: 'fulfilment',
    topics: ['shop.orders', 'fulfilment.replies'],
    owner: { team: 'logistics', contact: 'logistics@example.com' },
    handles: ['shop.order.placed.v1', 'inventory.stock-reserved.v1'],
  },
];

function document() {
  const schemas = {
    ...eventSchemas(),
    'inventory.stock-reserved.v1': { type: 'object', properties: { sagaId: { type: 'string' } } },
  };
  return asyncApiDocument({
    version: '1.2.3',
    brokers: ['kafka-1:9092', 'kafka-2:9092'],
    schemas,
    channels: catalogChannels(Object.keys(schemas), groups, 'hookrail-dlq-store'),
  });
}

/** Errors and warnings of the official parser (information and hints, e.g. "3.1.0 exists", are not failures). */
async function problems(source: object): Promise<string[]> {
  const { diagnostics } = await new Parser().parse(JSON.stringify(source));
  return diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code}: ${d.message} at ${d.path.join('/')}`);
}

describe('the AsyncAPI 3.0 document', () => {
  it('is valid for the official AsyncAPI parser', async () => {
    expect(await problems(document())).toEqual([]);
  });

  it('fails the parser when an operation names a message its channel does not carry (the check can fail)', async () => {
    const broken = document() as unknown as { operations: Record<string, { messages: object[] }> };
    broken.operations['ledger.receive.shop.orders'].messages.push({
      $ref: '#/channels/ledger.dlt/messages/deadLetter',
    });
    expect((await problems(broken)).join('\n')).toMatch(/ledger\.receive\.shop\.orders/);
  });

  it('has every topic: events, and each group’s dead-letter and replay topics, with consumers and owners', () => {
    const { channels, servers } = document();
    expect(Object.keys(channels)).toEqual([
      'fulfilment.replies',
      'hookrail.inbound',
      'inventory.commands',
      'payments.commands',
      'shipping.commands',
      'shop.orders',
      'fulfilment.dlt',
      'fulfilment.replay',
      'ledger.dlt',
      'ledger.replay',
    ]);
    expect(servers).toEqual({
      'broker-1': expect.objectContaining({ host: 'kafka-1:9092', protocol: 'kafka' }),
      'broker-2': expect.objectContaining({ host: 'kafka-2:9092', protocol: 'kafka' }),
    });
    expect(Object.keys(channels['shop.orders'].messages as object)).toEqual([
      'shop.order.cancelled.v1',
      'shop.order.fulfilled.v1',
      'shop.order.fulfilment-cancelled.v1',
      'shop.order.fulfilment-failed.v1',
      'shop.order.paid.v1',
      'shop.order.placed.v1',
    ]);
    // A type without a declared route lands on the topic of the groups that handle it that no route claims.
    expect(Object.keys(channels['fulfilment.replies'].messages as object)).toEqual(['inventory.stock-reserved.v1']);
    expect(channels['shop.orders']['x-hookrail-consumers']).toEqual([
      {
        group: 'ledger',
        owner: { team: 'finance', contact: 'finance@example.com' },
        handles: ['shop.order.placed.v1', 'shop.order.paid.v1'],
      },
      { group: 'fulfilment', owner: { team: 'logistics', contact: 'logistics@example.com' }, handles: ['shop.order.placed.v1'] },
    ]);
    expect(channels['ledger.dlt']).toMatchObject({
      'x-hookrail-kind': 'dead-letters',
      'x-hookrail-owner': { team: 'finance' },
      'x-hookrail-consumers': [{ group: 'hookrail-dlq-store' }],
    });
    expect(channels['ledger.replay']['x-hookrail-consumers']).toEqual([
      expect.objectContaining({ group: 'ledger', handles: ['shop.order.paid.v1', 'shop.order.placed.v1'] }),
    ]);
  });

  it('describes each message as a CloudEvent in the Kafka binary binding: ce_* headers, key, payload', () => {
    const message = (document().components as { messages: Record<string, Record<string, any>> }).messages[
      'shop.order.paid.v1'
    ];
    expect(message.headers.schemaFormat).toBe('application/schema+json;version=draft-2020-12');
    expect(message.payload.schemaFormat).toBe('application/schema+json;version=draft-2020-12');
    expect(message.headers.schema.properties.ce_type).toEqual({ type: 'string', const: 'shop.order.paid.v1' });
    expect(message.headers.schema.properties.ce_dataschema).toMatchObject({
      type: 'string',
      const: 'urn:hookrail:event:shop.order.paid.v1',
    });
    expect(message.headers.schema.required).toEqual(
      expect.arrayContaining(['ce_specversion', 'ce_id', 'ce_source', 'ce_type', 'ce_time', 'content-type']),
    );
    expect(message.headers.schema.properties.ce_hookrailid).toMatchObject({ type: 'string', minLength: 1 });
    expect(message.bindings.kafka.key).toMatchObject({ type: 'string' });
    expect(message.correlationId).toEqual(expect.objectContaining({ location: '$message.header#/ce_hookrailid' }));
  });

  it('inlines the nested definitions into payloads that validate as the 2020-12 schema does', () => {
    const schema = eventSchemas()['shop.order.placed.v1'];
    const payload = inlineDefinitions(schema);
    expect(JSON.stringify(payload)).not.toContain('$ref');
    const draft07 = new Ajv({ strict: false });
    const draft2020 = new Ajv2020({ strict: false });
    addFormats(draft07);
    addFormats(draft2020);
    const order = {
      orderId: 'ord_1',
      customer: { id: 'cus_1', email: 'ada@example.com' },
      amount: 1,
      currency: 'EUR',
      lineItems: [{ sku: 'a', quantity: 1, unitAmount: 1 }],
    };
    for (const data of [order, { ...order, customer: { id: 'cus_1' } }, { ...order, lineItems: [{ sku: 'a' }] }])
      expect(draft07.validate(payload, data)).toBe(draft2020.validate(schema, data));
  });

  it('is served under a namespace with every topic and group id prefixed, channel and operation ids unchanged', async () => {
    const committed = document();
    const served = forDeployment(committed, { brokers: ['kafka-9:9092'], namespace: 'staging.' });
    expect(Object.keys(served.channels)).toEqual(Object.keys(committed.channels));
    expect(served.channels['shop.orders']).toMatchObject({
      address: 'staging.shop.orders',
      bindings: { kafka: { topic: 'staging.shop.orders' } },
    });
    expect(served.channels['ledger.dlt']).toMatchObject({ address: 'staging.ledger.dlt' });
    const operations = served.operations as Record<string, any>;
    expect(operations['ledger.receive.shop.orders'].bindings.kafka.groupId.enum).toEqual(['staging.ledger']);
    expect(operations['hookrail-dlq-store.receive.ledger.dlt'].bindings.kafka.groupId.enum).toEqual([
      'staging.hookrail-dlq-store',
    ]);
    expect(served.servers).toEqual({ 'broker-1': expect.objectContaining({ host: 'kafka-9:9092' }) });
    expect(await problems(served)).toEqual([]);
    // Without a namespace only the servers change.
    expect(forDeployment(committed, { brokers: ['kafka-9:9092'], namespace: '' }).channels).toEqual(committed.channels);
  });
});
