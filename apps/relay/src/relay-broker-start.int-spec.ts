import { AppProcess, KafkaProxy, waitFor } from '@app/testing';
import {
  insertEvents,
  interleavedEvents,
  publishedCount,
  relaysStarted,
  RelayTestBed,
  startRelay,
} from './testing/relay-fixtures';

/** What the relay says about its brokers before any row arrives, and what kafkajs no longer says at every start. */
describe('the relay and its brokers at start', () => {
  let bed: RelayTestBed;
  let proxy: KafkaProxy;
  let relay: AppProcess | undefined;

  beforeAll(async () => {
    bed = await RelayTestBed.start('relay-broker-start', 1);
    proxy = await KafkaProxy.start();
  });

  afterAll(async () => {
    relay?.signal('SIGKILL');
    await relay?.exited;
    await proxy.stop();
    await bed.stop();
  });

  const brokerLines = (process: AppProcess) =>
    process.logLines().filter((line) => String(line.msg).includes(`KAFKA_BROKERS=${proxy.address}`));

  it('logs a line every few seconds naming KAFKA_BROKERS while the brokers cannot be reached, then that it connected', async () => {
    await proxy.stop();
    relay = startRelay(bed.database.url, { KAFKA_BROKERS: proxy.address });
    await relaysStarted([relay]);
    const unreachable = await waitFor(
      () => {
        const lines = brokerLines(relay!).filter((line) => line.level === 'warn');
        return lines.length >= 2 ? lines : undefined;
      },
      { what: 'two lines about the unreachable brokers', timeoutMs: 30_000 },
    );
    expect(unreachable[0].msg).toMatch(
      new RegExp(`^cannot reach Kafka at KAFKA_BROKERS=${proxy.address}; publishing waits, trying again every 5 s$`),
    );
    expect(unreachable[0].err).toMatch(/ECONNREFUSED|Connection error/);
    // One line per try, a few seconds apart: no flood.
    const gap = Date.parse(String(unreachable[1].time)) - Date.parse(String(unreachable[0].time));
    expect(gap).toBeGreaterThanOrEqual(4_000);

    await proxy.resume();
    await waitFor(
      () => brokerLines(relay!).some((line) => line.msg === `connected to Kafka at KAFKA_BROKERS=${proxy.address}`),
      {
        what: 'the line saying it connected',
        timeoutMs: 20_000,
      },
    );
    const lines = brokerLines(relay).length;
    const events = interleavedEvents(1, 3);
    await insertEvents(bed.dataSource, bed.topic, events);
    await waitFor(async () => (await publishedCount(bed.dataSource)) === 3, { what: 'the rows published' });
    expect(brokerLines(relay)).toHaveLength(lines);
    relay.signal('SIGTERM');
    await relay.exited;
  });

  it('publishes without kafkajs warning that the idempotent producer limits its retries', async () => {
    relay = startRelay(bed.database.url);
    await relaysStarted([relay]);
    await insertEvents(bed.dataSource, bed.topic, interleavedEvents(1, 3, 'again'));
    await waitFor(
      async () => (await bed.dataSource.query(`SELECT 1 FROM outbox WHERE published_at IS NULL`)).length === 0,
      {
        what: 'the rows published',
      },
    );
    const warnings = relay.logLines().filter((line) => line.level === 'warn' || line.level === 'error');
    expect(warnings.map((line) => line.msg)).not.toContainEqual(expect.stringContaining('Limiting retries'));
    expect(relay.stdout).not.toContain('Limiting retries for the idempotent producer');
  });
});
