import { SHOP_ORDER_PLACED_V1, toKafkaRecord } from '@app/contracts';
import { orderEvent } from '@app/testing';
import { KafkaMessage } from 'kafkajs';
import { parseAndValidate } from './parse-and-validate.middleware';

function message(record: { key: string; value: string; headers: Record<string, string> }): KafkaMessage {
  return {
    key: Buffer.from(record.key),
    value: Buffer.from(record.value),
    headers: record.headers,
    offset: '0',
    timestamp: '0',
    attributes: 0,
  } as KafkaMessage;
}

describe('parse-and-validate step', () => {
  const handles = (type: string) => type === SHOP_ORDER_PLACED_V1 || type === 'acme.unschemed.v1';

  it('turns a binary-mode CloudEvent into a validated event', () => {
    const event = orderEvent('ord-1');
    const parsed = parseAndValidate(message(toKafkaRecord(event)), handles);
    expect(parsed).toMatchObject({
      kind: 'event',
      event: { id: event.id, type: SHOP_ORDER_PLACED_V1, subject: 'ord-1', data: { orderId: 'ord-1' } },
      replayCount: 0,
    });
  });

  it("takes hookrail's id (ce_hookrailid) as the event's id, the producer's (ce_id) beside it, also for poison", () => {
    const event = { ...orderEvent('ord-2'), producerId: 'evt-123' };
    expect(parseAndValidate(message(toKafkaRecord(event)), handles)).toMatchObject({
      kind: 'event',
      event: { id: event.id, producerId: 'evt-123' },
    });
    const invalid = { ...orderEvent('ord-2', { data: { amount: -1 } }), producerId: 'evt-123' };
    expect(parseAndValidate(message(toKafkaRecord(invalid)), handles)).toMatchObject({
      kind: 'poison',
      eventId: invalid.id,
    });
    const { ce_specversion: _version, ...broken } = toKafkaRecord(event).headers;
    expect(parseAndValidate(message({ ...toKafkaRecord(event), headers: broken }), handles)).toMatchObject({
      kind: 'poison',
      eventId: event.id,
    });
  });

  it('calls a record without CloudEvents headers poison', () => {
    expect(parseAndValidate(message({ key: 'k', value: '{}', headers: {} }), handles)).toMatchObject({
      kind: 'poison',
      error: { name: 'MalformedRecordError' },
    });
  });

  it('calls data that breaks the schema poison, naming the field', () => {
    const parsed = parseAndValidate(
      message(toKafkaRecord(orderEvent('ord-1', { data: { currency: 'euro' } }))),
      handles,
    );
    expect(parsed).toMatchObject({ kind: 'poison', error: { name: 'EventValidationError' } });
    expect(parsed.kind === 'poison' && parsed.error.message).toMatch(/currency/);
  });

  it('ignores types the group has no handler for, and refuses handled types without a schema', () => {
    expect(parseAndValidate(message(toKafkaRecord(orderEvent('o', { type: 'shop.order.paid.v1' }))), handles)).toEqual({
      kind: 'ignored',
      type: 'shop.order.paid.v1',
    });
    expect(
      parseAndValidate(message(toKafkaRecord(orderEvent('o', { type: 'acme.unschemed.v1' }))), handles),
    ).toMatchObject({ kind: 'poison', error: { name: 'UnknownSchemaError' } });
  });

  it('passes a type without a schema unvalidated to a group that takes every type, and still checks known types', () => {
    const every = () => true;
    const unschemed = orderEvent('o', { type: 'acme.unschemed.v1', data: { anything: ['goes'] } });
    expect(parseAndValidate(message(toKafkaRecord(unschemed)), every, every)).toMatchObject({
      kind: 'event',
      event: { id: unschemed.id, type: 'acme.unschemed.v1', data: { anything: ['goes'] } },
    });
    const invalid = orderEvent('o', { data: { currency: 'euro' } });
    expect(parseAndValidate(message(toKafkaRecord(invalid)), every, every)).toMatchObject({ kind: 'poison' });
  });

  it('reads the replay count header', () => {
    const record = toKafkaRecord(orderEvent('ord-1'));
    const parsed = parseAndValidate(
      message({ ...record, headers: { ...record.headers, hookrail_replay_count: '3' } }),
      handles,
    );
    expect(parsed).toMatchObject({ kind: 'event', replayCount: 3 });
  });
});
