import { Closable } from '@app/config';
import { ensureTopics } from '@app/kafka';
import { orderEvent, produce, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../../apps/consumers/src/testing/consumers-fixtures';

/**
 * A batch group with the consumers app's defaults applies what one fetch brings from all its partitions in one
 * transaction: the partitions' runs reach the group's transaction together, instead of a few partitions at a time,
 * one transaction after another, while the newest messages wait for the next fetch.
 */
describe('a batch group applies a fetch of six partitions in one transaction (app defaults)', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('one-fetch', 'ledger');
  });

  afterAll(async () => {
    await consumers?.close();
    await bed.stop();
  });

  it('writes the 120 events waiting on six partitions in one transaction', async () => {
    await ensureTopics(bed.kafka, [{ topic: bed.topic, numPartitions: 6 }]);
    // 120 orders, keyed by order id: every partition has events waiting before the group joins.
    await produce(
      bed.kafka,
      bed.topic,
      Array.from({ length: 120 }, (_, index) => orderEvent(`ord-fetch-${index}`)),
    );
    const admin = bed.kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets(bed.topic).finally(() => admin.disconnect());
    expect(offsets.filter((partition) => Number(partition.high) > 0)).toHaveLength(6);

    consumers = await bed.startConsumers({ TOPIC_PARTITIONS: '6' });
    await waitFor(async () => (await bed.committed()) === 120, { what: '120 offsets committed' });

    const [{ events, transactions }] = await bed.dataSource.query(
      `SELECT count(*)::int AS events, count(DISTINCT xmin::text)::int AS transactions
         FROM processed_events WHERE "group" = 'ledger'`,
    );
    expect({ events, transactions }).toEqual({ events: 120, transactions: 1 });
  });
});
