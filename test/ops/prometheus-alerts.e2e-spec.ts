import { AppProcess, freePort, waitFor } from '@app/testing';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OpsBed } from './ops-bed';

const SHIPPED = path.resolve(__dirname, '../../deploy/prometheus');

interface FiringAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

/** One rule of `rules` with `threshold` replaced by `lowered`. */
function lowerThreshold(rules: string, alert: string, threshold: string, lowered: string): string {
  const start = rules.indexOf(`- alert: ${alert}`);
  const end = rules.indexOf('- alert:', start + 1);
  const rule = rules.slice(start, end < 0 ? undefined : end);
  if (start < 0 || !rule.includes(threshold)) throw new Error(`${alert} no longer reads "${threshold}"`);
  return rules.slice(0, start) + rule.replaceAll(threshold, lowered) + (end < 0 ? '' : rules.slice(end));
}

/**
 * The shipped rules, with every `for:` shortened so that the test does not wait minutes, the lag threshold of
 * HookrailConsumerLagHigh lowered from 1000 to 3 messages and the age of HookrailOutboxBacklogAging from 60 s to 2 s;
 * everything else as shipped.
 */
function rulesUnderTest(): string {
  const shipped = readFileSync(path.join(SHIPPED, 'alerts.yml'), 'utf8').replace(/^(\s+)for: \S+$/gm, '$1for: 1s');
  const lag = lowerThreshold(shipped, 'HookrailConsumerLagHigh', '> 1000', '> 3');
  return lowerThreshold(lag, 'HookrailOutboxBacklogAging', '> 60', '> 2');
}

/** The shipped prometheus.yml, scraping this test's apps every second and evaluating every second. */
function configUnderTest(
  targets: { ingress: string; admin: string; relay: string; consumers: string },
  rules: string,
): string {
  const shipped = readFileSync(path.join(SHIPPED, 'prometheus.yml'), 'utf8');
  const config = shipped
    .replace(/(scrape_interval|evaluation_interval): 15s/g, '$1: 1s')
    .replace("'127.0.0.1:3000'", `'${targets.ingress}'`)
    .replace("'127.0.0.1:3100'", `'${targets.admin}'`)
    .replace("'127.0.0.1:9464'", `'${targets.relay}'`)
    .replace("'127.0.0.1:9465'", `'${targets.consumers}'`)
    .replace('  - alerts.yml', `  - ${rules}`);
  if (config.includes('15s') || !config.includes(targets.consumers) || !config.includes(targets.admin))
    throw new Error('prometheus.yml changed shape');
  return config;
}

describe('the shipped alert rules in a real Prometheus scraping the running apps', () => {
  let bed: OpsBed;
  let relay: AppProcess;
  let consumers: AppProcess;
  let dir: string;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  let prometheusOutput = '';
  let consumersPort: number;

  beforeAll(async () => {
    bed = await OpsBed.start('alerts');
    const [relayPort, prometheusPort] = await Promise.all([freePort(), freePort()]);
    consumersPort = await freePort();
    // The consumers are not started yet: Prometheus has their target, and nothing answers there.
    relay = await bed.startRelay({ METRICS_PORT: String(relayPort), OUTBOX_RETENTION_INTERVAL_MS: '1000' });
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-prometheus-'));
    const rules = path.join(dir, 'alerts.yml');
    writeFileSync(rules, rulesUnderTest());
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      configUnderTest(
        {
          ingress: new URL(bed.ingress.url).host,
          admin: new URL(bed.ingress.adminUrl).host,
          relay: `127.0.0.1:${relayPort}`,
          consumers: `127.0.0.1:${consumersPort}`,
        },
        rules,
      ),
    );
    prometheusUrl = `http://127.0.0.1:${prometheusPort}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${prometheusPort}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout?.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
    prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
    await waitFor(async () => (await fetch(`${prometheusUrl}/-/ready`)).ok, {
      what: `Prometheus ready (${prometheusOutput.slice(-500)})`,
      timeoutMs: 30_000,
    });
  }, 120_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await bed?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function alerts(): Promise<FiringAlert[]> {
    const response = await fetch(`${prometheusUrl}/api/v1/alerts`);
    return ((await response.json()) as { data: { alerts: FiringAlert[] } }).data.alerts;
  }

  const firing = async (alertname: string, labels: Record<string, string>) =>
    (await alerts()).find(
      (alert) =>
        alert.state === 'firing' &&
        alert.labels.alertname === alertname &&
        Object.entries(labels).every(([name, value]) => alert.labels[name] === value),
    );

  const targetsUp = async () => {
    const targets = (await (await fetch(`${prometheusUrl}/api/v1/targets`)).json()) as {
      data: { activeTargets: Array<{ health: string }> };
    };
    return targets.data.activeTargets.filter((target) => target.health === 'up').length;
  };

  it('fires "no consumers up" while they have never started, then the lag alert (with the owner) when the group stops', async () => {
    await waitFor(async () => (await targetsUp()) === 3, {
      what: 'Prometheus scraping the ingress, the admin app and the relay',
    });
    const none = await waitFor(() => firing('HookrailNoConsumersUp', {}), {
      what: 'HookrailNoConsumersUp firing',
      timeoutMs: 30_000,
      intervalMs: 500,
    });
    expect(none.labels).toMatchObject({ severity: 'critical', app: 'consumers' });
    // Before the first scrapes every kind was absent; the two that answer resolve, the consumers' stays.
    await waitFor(async () => !(await firing('HookrailNoRelayUp', {})) && !(await firing('HookrailNoIngressUp', {})), {
      what: 'the relay and the ingress seen up by the rules',
    });
    expect(await firing('HookrailNoConsumersUp', {})).toBeDefined();

    consumers = await bed.startConsumers({
      CONSUMER_GROUPS: 'ledger',
      METRICS_PORT: String(consumersPort),
      DEAD_LETTER_STORE: 'false',
    });
    const first = await bed.send('ord_alerts_0');
    await waitFor(
      async () => (await bed.ingress.query(`SELECT 1 FROM processed_events WHERE event_id = $1`, [first])).length,
      { what: 'the ledger applying the first event (a committed offset to lag behind)', timeoutMs: 30_000 },
    );
    await waitFor(async () => (await targetsUp()) === 4, {
      what: 'Prometheus scraping the four apps',
      timeoutMs: 30_000,
    });
    await waitFor(async () => !(await firing('HookrailNoConsumersUp', {})), { what: 'HookrailNoConsumersUp resolved' });
    // Every app reports every scheduled job, under the scheduled job's own label, beside the target's `job`.
    const reporters = await waitFor(
      async () => {
        const query = encodeURIComponent(
          'count by (instance) (hookrail_job_overdue{scheduled_job="outbox-retention"})',
        );
        const answer = (await (await fetch(`${prometheusUrl}/api/v1/query?query=${query}`)).json()) as {
          data: { result: unknown[] };
        };
        return answer.data.result.length === 3 ? answer.data.result : undefined;
      },
      { what: 'outbox-retention reported by the admin app, the relay and the consumers', timeoutMs: 30_000 },
    );
    expect(reporters).toHaveLength(3);
    expect(await firing('HookrailJobOverdue', {})).toBeUndefined();
    expect(await firing('HookrailConsumerLagHigh', {})).toBeUndefined();

    // The ledger's process dies; events keep coming and the relay publishes them: the group's lag grows.
    consumers.signal('SIGKILL');
    await consumers.exited;
    for (let i = 1; i <= 5; i++) await bed.send(`ord_alerts_${i}`);
    const lag = await waitFor(
      () => firing('HookrailConsumerLagHigh', { group: 'ledger', team: 'finance', contact: 'finance@example.com' }),
      { what: 'HookrailConsumerLagHigh firing for ledger', timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(lag.labels).toMatchObject({ severity: 'warning' });
  });

  it('fires the job, outbox-backlog and "no relay up" alerts once every relay stopped', async () => {
    expect(await firing('HookrailOutboxBacklogAging', {})).toBeUndefined();
    relay.signal('SIGTERM');
    await relay.exited;
    // Accepted while no relay runs: the row waits, and only the admin app is left to report its age.
    await bed.send('ord_alerts_unpublished');
    const noRelay = await waitFor(() => firing('HookrailNoRelayUp', {}), {
      what: 'HookrailNoRelayUp firing',
      timeoutMs: 30_000,
      intervalMs: 500,
    });
    expect(noRelay.labels).toMatchObject({ severity: 'critical', app: 'relay' });
    const backlog = await waitFor(() => firing('HookrailOutboxBacklogAging', {}), {
      what: 'HookrailOutboxBacklogAging firing',
      timeoutMs: 30_000,
      intervalMs: 500,
    });
    expect(backlog.labels).toMatchObject({ severity: 'critical' });
    // Its outbox-retention job (every second here, grace 2) is reported overdue by the ingress.
    const overdue = await waitFor(() => firing('HookrailJobOverdue', { scheduled_job: 'outbox-retention' }), {
      what: 'HookrailJobOverdue firing for outbox-retention',
      timeoutMs: 60_000,
      intervalMs: 500,
    });
    expect(overdue.labels).toMatchObject({ severity: 'warning' });
    expect(overdue.labels.job).toBeUndefined();
  });
});
