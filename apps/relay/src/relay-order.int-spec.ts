import { AppProcess, decodeWithCloudEventsSdk, waitFor } from '@app/testing';
import {
  insertEvents,
  interleavedEvents,
  orderReport,
  publishedCount,
  range,
  relaysStarted,
  RelayTestBed,
  startRelay,
  TRACEPARENT,
} from './testing/relay-fixtures';

describe('three relays over one outbox', () => {
  const EVENTS = 10_000;
  const AGGREGATES = 50;
  let bed: RelayTestBed;
  const relays: AppProcess[] = [];

  beforeAll(async () => {
    bed = await RelayTestBed.start('relay-order', 6);
  });

  afterAll(async () => {
    for (const relay of relays) relay.signal('SIGKILL');
    await bed.stop();
  });

  it('publish 10k events of 50 aggregates with each aggregate in commit order, while relays join and share the lanes', async () => {
    const events = interleavedEvents(AGGREGATES, EVENTS);
    relays.push(startRelay(bed.database.url), startRelay(bed.database.url));
    // The third relay joins while the first two are draining: lanes move while events flow.
    const inserting = insertEvents(bed.dataSource, bed.topic, events.slice(0, EVENTS / 2));
    await relaysStarted(relays);
    await inserting;
    relays.push(startRelay(bed.database.url));
    await insertEvents(bed.dataSource, bed.topic, events.slice(EVENTS / 2));

    await waitFor(async () => (await publishedCount(bed.dataSource)) === EVENTS, {
      timeoutMs: 60_000,
      what: 'every row marked published',
    });
    await waitFor(() => bed.reader.messages.length >= EVENTS, { timeoutMs: 30_000, what: 'every event on the topic' });

    const report = orderReport(bed.reader.messages);
    expect(report.duplicates).toBe(0);
    expect(bed.reader.messages).toHaveLength(EVENTS);
    expect(report.byAggregate.size).toBe(AGGREGATES);
    for (const sequence of report.byAggregate.values()) expect(sequence).toEqual(range(EVENTS / AGGREGATES));

    // Every relay owned lanes at some point, and all three shared them in the end.
    const lanesOf = (relay: AppProcess) => relay.logLines().filter((line) => line.msg === 'lanes rebalanced');
    await waitFor(() => relays.every((relay) => lanesOf(relay).length > 0), { what: 'each relay to own lanes' });
  }, 150_000);

  it('write messages that the official CloudEvents SDK decodes, with the traceparent carried along', () => {
    const decoded = bed.reader.messages.map((message) => {
      const { specversion, id, type, subject, traceparent, data } = decodeWithCloudEventsSdk(message);
      return { specversion, id, type, subject, traceparent, data };
    });
    const expected = bed.reader.messages.map((message) => ({
      specversion: '1.0',
      id: message.headers.ce_id,
      type: 'test.sequenced.v1',
      subject: message.key,
      traceparent: TRACEPARENT,
      data: JSON.parse(message.value ?? 'null'),
    }));
    expect(decoded).toEqual(expected);
  });

  it('stop on SIGTERM after their batch, giving back every lane', async () => {
    await relaysStarted(relays);
    for (const relay of relays) relay.signal('SIGTERM');
    for (const relay of relays) expect(await relay.exited).toEqual({ code: 0, signal: null });
    const [row] = await bed.dataSource.query(
      `SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(row.held).toBe(0);
  });
});
