import { AppProcess, freePort, waitFor } from '@app/testing';
import { runCli } from '../../apps/cli/src/main';
import { OpsBed } from './ops-bed';

const PARTITIONS = 6;
const WAITING = 12;

interface LagRow {
  groupId: string;
  group: string;
  topic: string;
  partition: number;
  committed: number;
  lag: number;
  /** The CLI's only: how the group works through its partitions. */
  worksBy?: string;
}

/** `name{labels} value` lines of a Prometheus text answer, for one metric and group. */
function samples(text: string, metric: string, group: string): Array<{ labels: string; value: number }> {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${metric}{`) && line.includes(`group="${group}"`))
    .map((line) => ({
      labels: line.slice(0, line.lastIndexOf(' ')),
      value: Number(line.slice(line.lastIndexOf(' ') + 1)),
    }));
}

/**
 * Lag as an operator reads it, for a group that committed on one partition and then stopped (the others never
 * committed), and for a group whose process dies before its first commit, again and again: the ingress's and a
 * consumers process's `/metrics`, `hookrail lag` and `/admin` all count every message waiting.
 */
describe('consumer lag counts the partitions a group never committed on', () => {
  let bed: OpsBed;
  let exporterMetrics: string;
  let fresh: AppProcess;

  beforeAll(async () => {
    bed = await OpsBed.start('lag', {}, PARTITIONS);
    const metricsPort = await freePort();
    exporterMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
    [, , fresh] = await Promise.all([
      bed.startRelay(),
      // Another consumers process, running neither group: its /metrics reports them too.
      bed.startConsumers({
        CONSUMER_GROUPS: 'notifier',
        DEAD_LETTER_STORE: 'false',
        METRICS_PORT: String(metricsPort),
      }),
      bed.startConsumers({ CONSUMER_GROUPS: 'analytics', DEAD_LETTER_STORE: 'false', METRICS_PORT: '0' }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await bed?.stop();
  });

  const applied = async (group: string) =>
    (await bed.ingress.query(`SELECT count(*)::int AS n FROM processed_events WHERE "group" = $1`, [group]))[0]
      .n as number;

  async function cliLag(group: string): Promise<LagRow[]> {
    const out: string[] = [];
    const err: string[] = [];
    const env = { ...process.env, DATABASE_URL: bed.ingress.database.url, KAFKA_NAMESPACE: bed.namespace };
    const code = await runCli(
      ['lag', '--group', group, '--json'],
      (text) => out.push(text),
      (text) => err.push(text),
      env,
    );
    if (code !== 0) throw new Error(`hookrail lag exited ${code}: ${err.join('\n')}`);
    return JSON.parse(out.join('\n')) as LagRow[];
  }

  async function expectEverywhere(group: string, waiting: number): Promise<LagRow[]> {
    const [ingressText, consumersText] = await Promise.all([bed.metrics(), (await fetch(exporterMetrics)).text()]);
    for (const text of [ingressText, consumersText]) {
      expect(samples(text, 'hookrail_consumer_group_lag', group).map((sample) => sample.value)).toEqual([waiting]);
      const perPartition = samples(text, 'hookrail_consumer_lag', group);
      expect(perPartition.filter((sample) => sample.labels.includes(`topic="${bed.topic}"`))).toHaveLength(PARTITIONS);
      expect(perPartition.reduce((sum, sample) => sum + sample.value, 0)).toBe(waiting);
    }
    const rows = await cliLag(group);
    expect(rows.reduce((sum, row) => sum + row.lag, 0)).toBe(waiting);
    const api = await bed.admin<LagRow[]>(`lag?group=${encodeURIComponent(bed.namespace + group)}`);
    expect(api).toEqual(rows.map(({ worksBy: _worksBy, ...row }) => row));
    const groups = await bed.admin<Array<{ group: string; lag: number | null }>>('consumer-groups');
    expect(groups.find((row) => row.group === group)?.lag).toBe(waiting);
    return rows;
  }

  it('a group that committed on one partition, then stopped: every message behind it, on every partition', async () => {
    await bed.send('ord_lag_first');
    await waitFor(async () => (await applied('analytics')) === 1, { what: 'analytics applying the first event' });
    await waitFor(async () => (await cliLag('analytics')).some((row) => row.committed > 0), {
      what: 'analytics committing its first offset',
    });
    fresh.signal('SIGTERM');
    await fresh.exited;
    for (let i = 0; i < WAITING; i++) await bed.send(`ord_lag_${i}`);
    await waitFor(async () => (await applied('notifier')) === WAITING + 1, { what: 'every event published' });

    const rows = await waitFor(
      async () => {
        const lag = await cliLag('analytics');
        return lag.filter((row) => row.topic === bed.topic).reduce((sum, row) => sum + row.lag, 0) === WAITING
          ? lag
          : undefined;
      },
      { what: `analytics lag ${WAITING}` },
    );
    // Several partitions with messages waiting have never been committed on.
    expect(rows.filter((row) => row.topic === bed.topic && row.committed === -1 && row.lag > 0).length).toBeGreaterThan(
      1,
    );
    await waitFor(() => expectEverywhere('analytics', WAITING), {
      what: 'the same lag in the metrics, the CLI and the admin API',
      timeoutMs: 15_000,
    });
  });

  it('a group whose process dies before its first commit, twice: everything published is waiting', async () => {
    for (let run = 1; run <= 2; run++) {
      const ledger = bed.processes.start('consumers', {
        DATABASE_URL: bed.ingress.database.url,
        CONSUMER_GROUPS: 'ledger',
        KAFKA_NAMESPACE: bed.namespace,
        TOPIC_PARTITIONS: String(PARTITIONS),
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        DEAD_LETTER_STORE: 'false',
        METRICS_PORT: '0',
        HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS: '1',
      });
      expect(await ledger.exited).toEqual({ code: null, signal: 'SIGKILL' });
    }
    expect(await applied('ledger')).toBeGreaterThan(0);
    const rows = await waitFor(() => expectEverywhere('ledger', WAITING + 1), {
      what: `ledger lag ${WAITING + 1} in the metrics, the CLI and the admin API`,
      timeoutMs: 15_000,
    });
    expect(rows.filter((row) => row.topic === bed.topic).every((row) => row.committed === -1)).toBe(true);
  });
});
