import { freePort, waitFor } from '@app/testing';
import { hookrailInProcess } from '../cli/hookrail-in-process';
import { OpsBed } from './ops-bed';

/** `hookrail …` in this process, against the bed's database unless `env` says otherwise. */
function hookrail(bed: OpsBed, args: string[], env: NodeJS.ProcessEnv = {}) {
  return hookrailInProcess(bed.ingress.database.url, args, env);
}

const gauge = (metrics: string, name: string, job: string) =>
  new RegExp(`^${name}\\{scheduled_job="${job}"\\} (\\S+)$`, 'm').exec(metrics)?.[1];

describe("a scheduled job's dead man's switch", () => {
  let bed: OpsBed;
  const job = 'outbox-retention';

  beforeAll(async () => {
    bed = await OpsBed.start('jobs');
  });

  afterAll(async () => {
    await bed?.stop();
  });

  const status = async () => (await bed.admin<Array<Record<string, any>>>('jobs')).find((row) => row.name === job);

  it('turns overdue in the metric, the API and the CLI within interval × grace of the job stopping, and recovers after a run', async () => {
    const relayMetrics = await freePort();
    const relay = await bed.startRelay({ OUTBOX_RETENTION_INTERVAL_MS: '1000', METRICS_PORT: String(relayMetrics) });
    await waitFor(async () => (await status())?.lastSucceededAt, { what: 'a first run of the job' });
    expect(await status()).toMatchObject({
      app: 'relay',
      everyMs: 1000,
      grace: 2,
      schedule: 'every 1s',
      overdue: false,
    });
    // The relay reports it, and so does the ingress, which goes on reporting it once the relay is gone.
    const relayReport = await (await fetch(`http://127.0.0.1:${relayMetrics}/metrics`)).text();
    expect(gauge(relayReport, 'hookrail_job_overdue', job)).toBe('0');
    expect(gauge(relayReport, 'hookrail_job_overdue', 'ops-samples')).toBe('0');
    expect(gauge(await bed.metrics(), 'hookrail_job_overdue', job)).toBe('0');

    relay.signal('SIGTERM');
    expect((await relay.exited).code).toBe(0);
    const stoppedAt = Date.now();
    const overdue = await waitFor(async () => ((await status())?.overdue ? status() : undefined), {
      what: 'the job overdue in /admin/jobs',
      timeoutMs: 15_000,
    });
    // Overdue exactly interval × grace after its last success, and seen within a generous bound of the stop.
    expect(Date.parse(overdue!.overdueSince) - Date.parse(overdue!.lastSucceededAt)).toBe(2000);
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    const metrics = await bed.metrics();
    expect(gauge(metrics, 'hookrail_job_overdue', job)).toBe('1');
    expect(Math.round(Number(gauge(metrics, 'hookrail_job_last_success_timestamp_seconds', job)) * 1000)).toBe(
      Date.parse(overdue!.lastSucceededAt),
    );
    const cli = await hookrail(bed, ['jobs']);
    expect(cli.code).toBe(1);
    expect(cli.stdout.split('\n')[0]).toMatch(/^name\s+app\s+schedule\s+lastRun\s+lastSuccess/);
    expect(cli.stdout).toMatch(new RegExp(`^${job}\\s+relay\\s+every 1s\\s.*OVERDUE since`, 'm'));

    // Started again, the relay runs the job that fell due while it was down, once, and it is no longer overdue.
    await bed.startRelay({ OUTBOX_RETENTION_INTERVAL_MS: '1000' });
    await waitFor(async () => (await status())?.overdue === false, { what: 'the job recovered', timeoutMs: 30_000 });
    await waitFor(async () => gauge(await bed.metrics(), 'hookrail_job_overdue', job) === '0', {
      what: 'the metric recovered',
    });
    const recovered = await hookrail(bed, ['jobs', '--json']);
    expect(recovered.code).toBe(0);
    expect(JSON.parse(recovered.stdout).find((row: { name: string }) => row.name === job)).toMatchObject({
      overdue: false,
    });
  });

  it('uses the database of npm start when DATABASE_URL is not set and says so; a DATABASE_URL given is used silently', async () => {
    const { stderr } = await hookrail(bed, ['jobs'], { DATABASE_URL: '' });
    expect(stderr.split('\n')[0]).toBe(
      'hookrail: database hookrail on 127.0.0.1:5432 (DATABASE_URL is not set: the default of npm start)',
    );
    const given = await hookrail(bed, ['jobs']);
    expect(given.stderr).not.toContain('hookrail: database');
  });
});
