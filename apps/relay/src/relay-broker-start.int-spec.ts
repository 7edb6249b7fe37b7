import { AppProcess, KafkaProxy, waitFor } from '@app/testing';
import { insertEvents, interleavedEvents, relaysStarted, RelayTestBed, startRelay } from './testing/relay-fixtures';

/** What the relay says about its brokers at start, and what kafkajs no longer says whenever it makes a producer. */
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

  const published = () =>
    waitFor(async () => (await bed.dataSource.query(`SELECT 1 FROM outbox WHERE published_at IS NULL`)).length === 0, {
      what: 'every row published',
    });

  it('logs a line every few seconds naming KAFKA_BROKERS while the brokers cannot be reached, then that they answer', async () => {
    await proxy.stop();
    relay = startRelay(bed.database.url, { KAFKA_BROKERS: proxy.address });
    const waiting = `waiting for Kafka at ${proxy.address} (KAFKA_BROKERS)`;
    const lines = await waitFor(
      () => {
        const found = relay!.logLines().filter((line) => line.msg === waiting);
        return found.length >= 2 ? found : undefined;
      },
      { what: 'two lines about the unreachable brokers', timeoutMs: 45_000 },
    );
    expect(lines[0]).toMatchObject({ level: 'warn', err: expect.stringMatching(/ECONNREFUSED|Connection error/) });
    // One line every few seconds, however often it tries: no flood.
    expect(Date.parse(String(lines[1].time)) - Date.parse(String(lines[0].time))).toBeGreaterThanOrEqual(4_000);
    expect(relay.logged('relay started')).toBe(false);

    await proxy.resume();
    await relay.waitForLog(`Kafka at ${proxy.address} (KAFKA_BROKERS) answers; going on`, 20_000);
    await relaysStarted([relay]);
    await insertEvents(bed.dataSource, bed.topic, interleavedEvents(1, 3));
    await published();
    relay.signal('SIGTERM');
    await relay.exited;
  });

  it('publishes without kafkajs warning that the idempotent producer limits its retries', async () => {
    relay = startRelay(bed.database.url);
    await relaysStarted([relay]);
    await insertEvents(bed.dataSource, bed.topic, interleavedEvents(1, 3, 'again'));
    await published();
    const warnings = relay.logLines().filter((line) => line.level === 'warn' || line.level === 'error');
    expect(warnings.map((line) => line.msg)).not.toContainEqual(expect.stringContaining('Limiting retries'));
    expect(relay.stdout).not.toContain('Limiting retries for the idempotent producer');
  });
});
