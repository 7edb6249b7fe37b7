import { HOOKRAIL_HEADERS } from '@app/contracts';
import { KafkaMessage } from 'kafkajs';
import { parseDeadLetter, replayMessage } from './dead-letter-message';

const source = { topic: 'ledger.dlt', partition: 2, replayTopic: 'ledger.replay', group: 'ledger' };
const id = '0b7f4a58-2f1e-4c4e-9a52-6c1f3b2d9e10';

function message(headers: Record<string, string>, offset = '7'): KafkaMessage {
  return {
    key: Buffer.from('order-1'),
    value: Buffer.from('{"orderId":"order-1"}'),
    headers,
    offset,
    timestamp: '1764400000000',
    attributes: 0,
  } as KafkaMessage;
}

describe('dead-letter messages', () => {
  it('reads where the message came from and why it died, and keeps only the original headers', () => {
    const letter = parseDeadLetter(
      message({
        ce_id: 'evt-1',
        ce_type: 'shop.order.placed.v1',
        [HOOKRAIL_HEADERS.dltGroup]: 'ledger',
        [HOOKRAIL_HEADERS.dltTopic]: 'shop.orders',
        [HOOKRAIL_HEADERS.dltPartition]: '3',
        [HOOKRAIL_HEADERS.dltOffset]: '41',
        [HOOKRAIL_HEADERS.dltEventId]: 'evt-1',
        [HOOKRAIL_HEADERS.dltErrorClass]: 'TypeError',
        [HOOKRAIL_HEADERS.dltErrorMessage]: 'boom',
        [HOOKRAIL_HEADERS.dltAttempts]: '5',
        [HOOKRAIL_HEADERS.dltLastFailureAt]: '2026-11-29T10:00:00.000Z',
        [HOOKRAIL_HEADERS.replayCount]: '2',
        [HOOKRAIL_HEADERS.deadLetterId]: id,
      }),
      source,
    );
    expect(letter).toMatchObject({
      group: 'ledger',
      eventId: 'evt-1',
      type: 'shop.order.placed.v1',
      key: 'order-1',
      originalTopic: 'shop.orders',
      originalPartition: 3,
      originalOffset: '41',
      dltTopic: 'ledger.dlt',
      dltPartition: 2,
      dltOffset: '7',
      replayTopic: 'ledger.replay',
      headers: { ce_id: 'evt-1', ce_type: 'shop.order.placed.v1' },
      errorClass: 'TypeError',
      attempts: 5,
      deadAt: new Date('2026-11-29T10:00:00.000Z'),
      replayCount: 2,
      replayOf: id,
    });
  });

  it('indexes a dead letter without the runtime headers under its own coordinates', () => {
    const letter = parseDeadLetter(message({ [HOOKRAIL_HEADERS.deadLetterId]: 'not-a-uuid' }), source);
    expect(letter).toMatchObject({
      group: 'ledger',
      eventId: null,
      originalTopic: 'ledger.dlt',
      originalPartition: 2,
      originalOffset: '7',
      errorClass: 'unknown',
      attempts: 1,
      replayCount: 0,
      replayOf: null,
    });
    expect(letter.deadAt).toEqual(new Date(1764400000000));
  });

  it('builds a replay with the original record, the raised count and the row id', () => {
    const payload = Buffer.from('{}');
    expect(replayMessage({ id, key: 'order-1', payload, headers: { ce_id: 'evt-1' }, replayCount: 3 })).toEqual({
      key: 'order-1',
      value: payload,
      headers: { ce_id: 'evt-1', [HOOKRAIL_HEADERS.replayCount]: '3', [HOOKRAIL_HEADERS.deadLetterId]: id },
    });
  });
});
