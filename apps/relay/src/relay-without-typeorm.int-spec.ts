import { AppProcess, freePort, waitFor } from '@app/testing';
import path from 'node:path';
import {
  insertEvents,
  interleavedEvents,
  publishedCount,
  relaysStarted,
  RelayTestBed,
  startRelay,
} from './testing/relay-fixtures';

/**
 * The relay runs on plain pg (its drain loops, its retention job, its metrics) and never loads TypeORM, whose
 * memory would push it over its budget. A real relay process drains, runs its retention job and answers a scrape
 * with a watcher preloaded that names any module requiring TypeORM.
 */
describe('the relay process', () => {
  const EVENTS = 200;
  let bed: RelayTestBed;
  let relay: AppProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    bed = await RelayTestBed.start('relay-lean', 2);
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    relay = startRelay(bed.database.url, {
      METRICS_PORT: String(port),
      OUTBOX_RETENTION_SECONDS: '0',
      OUTBOX_RETENTION_INTERVAL_MS: '1000',
      NODE_OPTIONS: `--require ${path.join(__dirname, 'testing', 'typeorm-watch.js')}`,
    });
    await relaysStarted([relay]);
  });

  afterAll(async () => {
    relay.signal('SIGKILL');
    await bed.stop();
  });

  it('drains, prunes and reports its backlog and jobs without ever loading TypeORM', async () => {
    await insertEvents(bed.dataSource, bed.topic, interleavedEvents(10, EVENTS));
    await waitFor(() => bed.reader.messages.length >= EVENTS, { what: 'every event on the topic' });

    // Retention runs on the relay's pool (its lock, its schedule, its heartbeat) and deletes the published rows.
    const heartbeat = await waitFor(
      async () => {
        const [row] = await bed.dataSource.query(
          `SELECT last_affected::int AS affected, last_error FROM job_heartbeats
            WHERE name = 'outbox-retention' AND last_affected > 0`,
        );
        return row;
      },
      { what: 'a retention run that deleted the published rows' },
    );
    expect(heartbeat).toEqual({ affected: EVENTS, last_error: null });
    expect(await publishedCount(bed.dataSource)).toBe(0);
    const [schedule] = await bed.dataSource.query(
      `SELECT app, every_ms FROM job_schedules WHERE name = 'outbox-retention'`,
    );
    expect(schedule).toEqual({ app: 'relay', every_ms: 1000 });

    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toMatch(/hookrail_outbox_backlog_rows 0\b/);
    expect(metrics).toMatch(/hookrail_job_overdue\{scheduled_job="outbox-retention"\} 0/);

    expect(relay.stderr).toContain('typeorm-watch: on');
    expect(relay.stderr).not.toMatch(/typeorm-watch: typeorm/);
  }, 120_000);
});
