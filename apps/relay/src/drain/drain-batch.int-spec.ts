import { plaintextKafka } from '@app/kafka';
import { createLogger } from '@app/logger';
import { TEST_BROKERS, waitFor } from '@app/testing';
import { Client } from 'pg';
import { LaneSession } from '../lanes/lane-session';
import { RelayMetrics } from '../metrics/relay.metrics';
import { KafkaPublisher } from '../publish/kafka-publisher';
import { insertEvents, interleavedEvents, publishedCount, RelayTestBed } from '../testing/relay-fixtures';
import { drainBatch } from './drain-batch';

/**
 * Each round trip to Postgres costs the relay and a backend a socket write and a wake-up, so a claim → publish → mark
 * transaction takes two: the BEGIN goes with the claim, the mark with the COMMIT.
 */
describe('a claim → publish → mark transaction (real Postgres and Kafka)', () => {
  const logger = createLogger('drain-batch-test', 'silent');
  let bed: RelayTestBed;
  let session: LaneSession;
  let publisher: KafkaPublisher;

  beforeAll(async () => {
    bed = await RelayTestBed.start('drain-batch', 2);
    session = await LaneSession.open(bed.database.url, () => undefined);
    await session.rebalance();
    publisher = new KafkaPublisher(plaintextKafka(TEST_BROKERS), logger);
  });

  afterAll(async () => {
    await publisher?.reset();
    await session?.close();
    await bed?.stop();
  });

  const drain = () =>
    drainBatch(session, [...session.lanes], publisher, new RelayMetrics(), logger, {
      batchSize: 1_000,
      maxRequestBytes: 1024 * 1024,
    });

  it('publishes and marks a batch in two round trips, and ends an empty claim in two', async () => {
    await insertEvents(bed.dataSource, bed.topic, interleavedEvents(5, 40));
    const queries = jest.spyOn(Client.prototype, 'query');
    // The lane connection's statements (the writers' NOTIFY may still be on its way on another connection).
    const roundTrips = () => {
      const begin = queries.mock.calls.findIndex(([query]) => String(query).startsWith('BEGIN'));
      return queries.mock.contexts.filter((client) => client === queries.mock.contexts[begin]).length;
    };
    try {
      expect(await drain()).toEqual({ claimed: 40, published: 40, parked: 0 });
      expect(roundTrips()).toBe(2);
      expect(await publishedCount(bed.dataSource)).toBe(40);
      await waitFor(() => bed.reader.messages.length >= 40, { what: 'the 40 events on the topic' });

      queries.mockClear();
      expect(await drain()).toEqual({ claimed: 0, published: 0, parked: 0 });
      expect(roundTrips()).toBe(2);
    } finally {
      queries.mockRestore();
    }
  });
});
