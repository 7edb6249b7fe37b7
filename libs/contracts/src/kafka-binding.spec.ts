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

describe('key, subject and partitionkey on the Kafka record', () => {
  it('keys by the partitionkey and keeps the subject as the producer sent it; the official SDK reads both', () => {
    const record = toKafkaRecord(event('shop.order.placed.v1', { subject: 'ord_X', partitionkey: 'pk-ord_X' }));
    expect(record.key).toBe('pk-ord_X');
    expect(record.headers).toMatchObject({ ce_subject: 'ord_X', ce_partitionkey: 'pk-ord_X' });
    const decoded = CloudEventsKafka.toEvent({ ...record, body: record.value });
    expect(Array.isArray(decoded) ? decoded[0] : decoded).toMatchObject({
      id: '7be35922-9813-403b-835b-28eeb9f49920',
      source: '/webhooks/shop',
      subject: 'ord_X',
      partitionkey: 'pk-ord_X',
    });
    expect(fromKafkaRecord(record)).toMatchObject({ subject: 'ord_X', partitionkey: 'pk-ord_X' });
  });

  it('keys by the subject without a partitionkey, and makes no subject up from a partitionkey', () => {
    expect(toKafkaRecord(event('shop.order.placed.v1')).key).toBe('ord_1');
    const keyed = toKafkaRecord(event('crm.account.updated.v1', { subject: undefined, partitionkey: 'acct_9' }));
    expect(keyed.key).toBe('acct_9');
    expect(keyed.headers).not.toHaveProperty('ce_subject');
    expect(fromKafkaRecord(keyed).subject).toBeUndefined();
    // A record keyed by its subject without ce_subject (written before subjects were kept) still reads one.
    const { ce_subject: _subject, ...older } = toKafkaRecord(event('shop.order.placed.v1')).headers;
    expect(fromKafkaRecord({ key: 'ord_1', value: '{}', headers: older }).subject).toBe('ord_1');
  });
});

describe("ce_id and ce_hookrailid: the producer's id and hookrail's", () => {
  const hookrailId = '7be35922-9813-403b-835b-28eeb9f49920';

  it("writes the producer's id as ce_id and hookrail's as ce_hookrailid; reads hookrail's back as the id", () => {
    const record = toKafkaRecord(event('shop.order.placed.v1', { producerId: 'evt-123' }));
    expect(record.headers).toMatchObject({ ce_id: 'evt-123', ce_hookrailid: hookrailId });
    expect(record.headers).not.toHaveProperty('ce_producerId');
    // Without a subject or partitionkey the key is hookrail's id, unique: a producer's is unique only in its source.
    expect(toKafkaRecord(event('crm.account.updated.v1', { subject: undefined, producerId: 'evt-123' })).key).toBe(
      hookrailId,
    );
    const decoded = CloudEventsKafka.toEvent({ ...record, body: record.value });
    expect(Array.isArray(decoded) ? decoded[0] : decoded).toMatchObject({ id: 'evt-123', hookrailid: hookrailId });
    const read = fromKafkaRecord(record);
    expect(read).toMatchObject({ id: hookrailId, producerId: 'evt-123' });
    expect(read).not.toHaveProperty('hookrailid');
    expect(toKafkaRecord(read)).toEqual(record);
  });

  it("writes hookrail's id as both on an event hookrail made; a record without ce_hookrailid reads ce_id", () => {
    const record = toKafkaRecord(event('shop.order.placed.v1'));
    expect(record.headers).toMatchObject({ ce_id: hookrailId, ce_hookrailid: hookrailId });
    expect(fromKafkaRecord(record)).not.toHaveProperty('producerId');
    const { ce_hookrailid: _id, ...older } = record.headers;
    expect(fromKafkaRecord({ ...record, headers: older })).toMatchObject({ id: hookrailId });
    expect(fromKafkaRecord({ ...record, headers: older })).not.toHaveProperty('producerId');
  });
});
