import { AppProcess, KafkaProxy, waitFor } from '@app/testing';
import {
  firstArrivals,
  insertEvents,
  interleavedEvents,
  orderReport,
  publishedCount,
  range,
  relaysStarted,
  RelayTestBed,
  startRelay,
} from './testing/relay-fixtures';

describe('a broker outage', () => {
  const OUTAGE_MS = 20_000;
  const AGGREGATES = 20;
  let bed: RelayTestBed;
  let proxy: KafkaProxy;
  let relay: AppProcess;

  beforeAll(async () => {
    bed = await RelayTestBed.start('relay-outage', 3);
    proxy = await KafkaProxy.start();
  });

  afterAll(async () => {
    relay?.signal('SIGKILL');
    await proxy.stop();
    await bed.stop();
  });

  it('holds rows that keep arriving while the broker is unreachable and publishes all of them after it returns', async () => {
    // The relay reaches the broker only through the proxy; stopping the proxy cuts it off, the shared broker runs on.
    relay = startRelay(bed.database.url, { KAFKA_BROKERS: proxy.address, RELAY_BACKOFF_MAX_MS: '2000' });
    const events = interleavedEvents(AGGREGATES, 2000);
    await insertEvents(bed.dataSource, bed.topic, events.slice(0, 200));
    await relaysStarted([relay]);
    await waitFor(async () => (await publishedCount(bed.dataSource)) === 200, { what: 'the first 200 published' });

    await proxy.stop();
    const outageStart = Date.now();
    // Rows keep arriving during the outage: 100 about every second.
    for (let next = 200, tick = 0; next < events.length; next += 100, tick++) {
      await waitFor(() => Date.now() >= outageStart + tick * 1000, { intervalMs: 20, what: 'the next second' });
      await insertEvents(bed.dataSource, bed.topic, events.slice(next, next + 100));
    }
    await waitFor(() => Date.now() >= outageStart + OUTAGE_MS, {
      timeoutMs: OUTAGE_MS + 5000,
      intervalMs: 100,
      what: 'the end of the outage',
    });
    expect(await publishedCount(bed.dataSource)).toBe(200);
    // The failed send is logged once the producer gives up on the unreachable broker (later on a busy machine).
    await waitFor(() => relay.logLines().some((line) => line.msg === 'publish failed; rolled back, will retry'), {
      timeoutMs: 60_000,
      what: 'a failed publish logged',
    });
    expect(await publishedCount(bed.dataSource)).toBe(200);
    const [attempts] = await bed.dataSource.query(
      `SELECT count(*)::int AS rows FROM outbox WHERE published_at IS NULL AND attempts > 0 AND last_error IS NOT NULL`,
    );
    expect(attempts.rows).toBeGreaterThan(0);

    await proxy.resume();
    await waitFor(async () => (await publishedCount(bed.dataSource)) === events.length, {
      timeoutMs: 30_000,
      what: 'every row published after the outage',
    });
    await waitFor(() => new Set(bed.reader.messages.map((message) => message.headers.ce_id)).size === events.length, {
      what: 'every event on the topic',
    });
    const report = orderReport(bed.reader.messages);
    for (const sequence of report.byAggregate.values())
      expect(firstArrivals(sequence)).toEqual(range(events.length / AGGREGATES));
    expect(relay.logLines().some((line) => line.msg === 'publishing again')).toBe(true);
  }, 150_000);
});
