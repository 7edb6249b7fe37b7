import { Kafka as CloudEventsKafka } from 'cloudevents';
import { CloudEvent } from './cloudevent';
import { fromKafkaRecord, toKafkaRecord } from './kafka-binding';

const event = (type: string, extra: Partial<CloudEvent> = {}): CloudEvent => ({
  specversion: '1.0',
  id: '7be35922-9813-403b-835b-28eeb9f49920',
  source: '/webhooks/shop',
  type,
  time: '2025-06-01T12:00:00.000Z',
  datacontenttype: 'application/json',
  subject: 'ord_1',
  data: { orderId: 'ord_1' },
  ...extra,
});

describe('ce_dataschema on the Kafka record', () => {
  it('names the catalogue entry of a registered type, whatever the event said', () => {
    const record = toKafkaRecord(event('shop.order.placed.v1', { dataschema: 'https://elsewhere.example/schema' }));
    expect(record.headers.ce_dataschema).toBe('urn:hookrail:event:shop.order.placed.v1');
    // The official SDK reads it as the event's dataschema attribute.
    const decoded = CloudEventsKafka.toEvent({ ...record, body: record.value });
    expect((Array.isArray(decoded) ? decoded[0] : decoded).dataschema).toBe('urn:hookrail:event:shop.order.placed.v1');
    expect(fromKafkaRecord(record).dataschema).toBe('urn:hookrail:event:shop.order.placed.v1');
  });

  it("keeps the producer's own for a type without a contract, and names none when there is none", () => {
    const own = toKafkaRecord(event('shop.customer.merged.v1', { dataschema: 'https://schemas.example/merged.json' }));
    expect(own.headers.ce_dataschema).toBe('https://schemas.example/merged.json');
    expect(toKafkaRecord(event('shop.customer.merged.v1')).headers).not.toHaveProperty('ce_dataschema');
  });
});
