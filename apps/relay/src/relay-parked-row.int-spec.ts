import { laneOf } from '@app/outbox';
import { AppProcess, freePort, testKafka, waitFor } from '@app/testing';
import { ConfigResourceTypes } from 'kafkajs';
import { insertEvents, relaysStarted, RelayTestBed, sequencedEvent, startRelay } from './testing/relay-fixtures';

describe('a row the broker rejects for good', () => {
  let bed: RelayTestBed;
  let relay: AppProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    bed = await RelayTestBed.start('relay-parked', 3);
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    relay = startRelay(bed.database.url, { METRICS_PORT: String(port) });
  });

  afterAll(async () => {
    relay.signal('SIGKILL');
    await bed.stop();
  });

  /** Another aggregate that hashes to the same lane as `key`. */
  function laneMate(key: string): string {
    for (let i = 0; ; i++)
      if (laneOf(`neighbour-${i}`) === laneOf(key) && `neighbour-${i}` !== key) return `neighbour-${i}`;
  }

  const values = (key: string) =>
    bed.reader.messages
      .filter((message) => message.key === key)
      .map((message) => JSON.parse(message.value ?? '{}').seq);

  it('is parked with its error and counted; other lanes and other keys of its lane go on; its later rows wait behind it', async () => {
    const poisoned = 'order-poisoned';
    const neighbour = laneMate(poisoned);
    const events = [
      sequencedEvent(poisoned, 0),
      sequencedEvent(neighbour, 0),
      sequencedEvent(poisoned, 1, { blob: 'x'.repeat(1_200_000) }), // above the broker's 1 MiB message.max.bytes
      sequencedEvent(poisoned, 2),
      sequencedEvent(neighbour, 1),
      ...Array.from({ length: 100 }, (_, i) => sequencedEvent(`order-${i}`, 0)),
    ];
    await insertEvents(bed.dataSource, bed.topic, events, { perTransaction: 1, writers: 1 });
    await relaysStarted([relay]);

    await waitFor(() => bed.reader.messages.length >= 103, { what: 'the publishable rows on the topic' });
    expect(values(poisoned)).toEqual([0]);
    expect(values(neighbour)).toEqual([0, 1]);
    // The broker's rejection may come after the other lanes are published: wait for the park itself.
    const parked = await waitFor(
      async () => {
        const [row] = await bed.dataSource.query(
          `SELECT parked_at, last_error, attempts FROM outbox WHERE event_id = $1`,
          [events[2].id],
        );
        return row.parked_at !== null && row;
      },
      { what: 'the rejected row parked' },
    );
    expect(parked.last_error).toMatch(/MESSAGE_TOO_LARGE|larger than the max message size/);
    const [held] = await bed.dataSource.query(`SELECT published_at, parked_at FROM outbox WHERE event_id = $1`, [
      events[3].id,
    ]);
    expect(held).toEqual({ published_at: null, parked_at: null });

    const metrics = await waitFor(
      async () => {
        const text = await (await fetch(metricsUrl)).text();
        return text.includes('hookrail_outbox_parked_rows 1') && text;
      },
      { what: 'the parked row in /metrics' },
    );
    expect(metrics).toMatch(/hookrail_relay_failures_total\{kind="rejected"\} 1/);
    expect(metrics).toMatch(/hookrail_outbox_backlog_rows 1\b/);
    expect(metrics).toMatch(/hookrail_relay_published_total\{topic="[^"]+"\} 103/);
    expect(
      relay
        .logLines()
        .some((line) => String(line.msg).startsWith('broker rejected an outbox row') && line.eventId === events[2].id),
    ).toBe(true);
  }, 120_000);

  it('is published, followed by the rows that waited, once the operator fixed the cause and requeued it', async () => {
    const admin = testKafka().admin();
    await admin.connect();
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: bed.topic,
          configEntries: [{ name: 'max.message.bytes', value: '3000000' }],
        },
      ],
    });
    // The controller takes the change at once; the broker applies it from the metadata log a moment later.
    await waitFor(
      async () => {
        const { resources } = await admin.describeConfigs({
          includeSynonyms: false,
          resources: [{ type: ConfigResourceTypes.TOPIC, name: bed.topic, configNames: ['max.message.bytes'] }],
        });
        return resources[0].configEntries[0]?.configValue === '3000000';
      },
      { what: 'the broker to apply the larger max.message.bytes' },
    );
    await admin.disconnect();

    await bed.dataSource.query(`UPDATE outbox SET parked_at = NULL WHERE parked_at IS NOT NULL`);
    await waitFor(() => values('order-poisoned').length === 3, { what: 'the requeued row and the one behind it' });
    expect(values('order-poisoned')).toEqual([0, 1, 2]);
  });
});
