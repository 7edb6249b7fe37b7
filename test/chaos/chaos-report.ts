import { ExitRecord } from './chaos-processes';
import { FaultRecord } from './fault-runner';
import { InvariantRow } from './groups/chaos-group';
import { AcceptedEvent } from './order-events';
import { Delivery } from './webhook-sender';

/** The invariants as a Markdown table, then the examples of every row that failed. */
export function invariantTable(rows: readonly InvariantRow[]): string {
  const lines = ['| invariant | expected | observed | result |', '|---|---|---|---|'];
  for (const row of rows)
    lines.push(`| ${row.invariant} | ${row.expected} | ${row.observed} | ${row.ok ? 'ok' : 'VIOLATED'} |`);
  for (const row of rows.filter((candidate) => !candidate.ok && candidate.examples?.length)) {
    lines.push('', `${row.invariant}, for example:`, ...row.examples!.slice(0, 5).map((example) => `  - ${example}`));
  }
  return lines.join('\n');
}

/** Counts of things by a key, as `a 3, b 1`. */
export function countsBy<T>(items: readonly T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${name} ${count}`).join(', ') || 'none';
}

/** A row that holds when no process exited by itself after it had started (a failed start is only reported). */
export function crashRow(exits: readonly ExitRecord[]): InvariantRow {
  const crashed = exits.filter((exit) => exit.afterReady);
  return {
    invariant: 'no process died on its own once started',
    expected: 'none',
    observed: crashed.length === 0 ? 'none' : countsBy(crashed, (exit) => exit.process),
    ok: crashed.length === 0,
    examples: crashed.map((exit) => `${exit.process}: exit ${exit.code ?? exit.signal}`),
  };
}

export interface RunFigures {
  seed: number;
  replay: string;
  startedAt: number;
  trafficEnd: number;
  lastFaultEnd: number;
  drainedAt?: number;
  offered: number;
  deliveries: readonly Delivery[];
  accepted: readonly AcceptedEvent[];
  faults: readonly FaultRecord[];
  exits: readonly ExitRecord[];
}

/** What the run did, one `label  value` line each: rates, answers, faults, drain. */
export function runSummary(run: RunFigures): string {
  const seconds = (from: number, to: number) => (to - from) / 1000;
  const traffic = seconds(run.startedAt, run.trafficEnd);
  const acceptedInTraffic = new Set(
    run.deliveries
      .filter((delivery) => delivery.status >= 200 && delivery.status < 300 && delivery.answeredAt <= run.trafficEnd)
      .map((delivery) => delivery.webhookId),
  ).size;
  const total = run.drainedAt ? seconds(run.startedAt, run.drainedAt) : undefined;
  const cpu = process.cpuUsage();
  const entries: Array<[string, string]> = [
    ['seed', `${run.seed} (replay: ${run.replay})`],
    [
      'traffic',
      `${traffic.toFixed(1)} s; ${run.offered} events offered (${(run.offered / traffic).toFixed(1)}/s), ` +
        `${run.deliveries.length} deliveries with duplicates and retries`,
    ],
    ['answers', countsBy(run.deliveries, (delivery) => String(delivery.status || 'none'))],
    [
      'accepted under faults',
      `${acceptedInTraffic} events during the traffic (${(acceptedInTraffic / traffic).toFixed(1)}/s)`,
    ],
    [
      'applied end to end',
      total
        ? `${run.accepted.length} events by every group in ${total.toFixed(1)} s (${(run.accepted.length / total).toFixed(1)}/s, drain included)`
        : 'not drained',
    ],
    [
      'poison',
      countsBy(
        run.accepted.filter((event) => event.poisonFor),
        (event) => `for ${event.poisonFor}`,
      ),
    ],
    [
      'faults',
      countsBy(
        run.faults.filter((record) => !record.note?.startsWith('skipped')),
        (record) => record.kind,
      ),
    ],
    [
      'fault notes',
      run.faults
        .filter((record) => record.note)
        .map((record) => `${record.what}: ${record.note}`)
        .join('; ') || 'none',
    ],
    ['restarts on exit', countsBy(run.exits, (exit) => `${exit.process}${exit.afterReady ? '' : ' (start failed)'}`)],
    ['last fault undone', `${seconds(run.startedAt, run.lastFaultEnd).toFixed(1)} s after the start`],
    [
      'time to drain',
      run.drainedAt
        ? `${seconds(run.lastFaultEnd, run.drainedAt).toFixed(1)} s after the last fault and the traffic`
        : 'not drained',
    ],
    ['harness CPU', `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (sender, proxies, checks)`],
  ];
  const width = Math.max(...entries.map(([label]) => label.length));
  return entries.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}
