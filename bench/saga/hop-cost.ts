import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import { cpuTimeMs, ownCpuTimeMs } from '../lib/process-memory';

/** The processes a hop costs: the three apps by pid, Postgres's and the broker's found by name. */
export type HopProcess = 'ingress' | 'relay' | 'consumers' | 'postgres' | 'broker';
export const HOP_PROCESSES: HopProcess[] = ['ingress', 'relay', 'consumers', 'postgres', 'broker'];

/** What a window of work cost: CPU ms per process, Postgres transactions, and the outbox rows (messages) written. */
export interface HopSample {
  /** CPU ms so far of each process of each kind, by pid: a process that starts or ends between two samples counts. */
  cpuMs: Record<HopProcess, Map<number, number>>;
  /** Wake-ups so far (voluntary context switches of all its threads) of each process of each kind, by pid. */
  wakeUps: Record<HopProcess, Map<number, number>>;
  transactions: number;
  messages: number;
  /** Write system calls of each app so far (`syscw` of /proc/<pid>/io): a query, a Kafka request, an HTTP answer. */
  writes: Record<AppProcess, number>;
}

export type AppProcess = 'ingress' | 'relay' | 'consumers';
/** What is counted per process: CPU ms, and wake-ups (voluntary context switches). */
export type HopCounter = 'cpuMs' | 'wakeUps';
const APPS: AppProcess[] = ['ingress', 'relay', 'consumers'];

function writeCalls(pid: number): number {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** Voluntary context switches of all of a process's threads: each is a sleep, so each a wake-up to follow. */
function wakeUpsOf(pid: number): number {
  let total = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      total += Number(
        /voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8'))?.[1] ?? 0,
      );
  } catch {
    // gone meanwhile
  }
  return total;
}

/** Every process whose command name is `comm` (Postgres: the postmaster and all its backends and workers). */
function processesNamed(test: (comm: string, cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      const cmdline = comm === 'java' ? readFileSync(`/proc/${entry}/cmdline`, 'utf8') : '';
      if (test(comm, cmdline)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * The apps by their pid, with any children; every Postgres or broker process on its own: a backend is the
 * postmaster's child, and counted with it too, its CPU would count twice and leave the postmaster's sum when it exits.
 */
const byPid = (pids: number[], own = false) =>
  new Map(pids.map((pid) => [pid, own ? ownCpuTimeMs(pid) : cpuTimeMs(pid)]));

/**
 * A sample of everything a message's hops cost so far. A Postgres backend that exits between two samples takes its
 * CPU since the first with it: the apps keep their pools open, so that is little.
 */
export async function sampleHops(
  db: Client,
  apps: Record<'ingress' | 'relay' | 'consumers', number>,
): Promise<HopSample> {
  const [{ transactions }] = (
    await db.query<{ transactions: string }>(
      `SELECT xact_commit + xact_rollback AS transactions FROM pg_stat_database WHERE datname = current_database()`,
    )
  ).rows;
  const [{ messages }] = (await db.query<{ messages: number }>(`SELECT count(*)::int AS messages FROM outbox`)).rows;
  const pids: Record<HopProcess, number[]> = {
    ingress: [apps.ingress],
    relay: [apps.relay],
    consumers: [apps.consumers],
    postgres: processesNamed((comm) => comm === 'postgres'),
    broker: processesNamed((comm, cmdline) => comm === 'java' && cmdline.includes('kafka.Kafka')),
  };
  const own = (name: HopProcess) => name === 'postgres' || name === 'broker';
  const each = (read: (name: HopProcess, pids: number[]) => Map<number, number>) =>
    Object.fromEntries(HOP_PROCESSES.map((name) => [name, read(name, pids[name])])) as Record<
      HopProcess,
      Map<number, number>
    >;
  return {
    cpuMs: each((name, list) => byPid(list, own(name))),
    wakeUps: each((_name, list) => new Map(list.map((pid) => [pid, wakeUpsOf(pid)]))),
    transactions: Number(transactions),
    messages,
    writes: Object.fromEntries(APPS.map((app) => [app, writeCalls(apps[app])])) as Record<AppProcess, number>,
  };
}

/** CPU ms and wake-ups per message of each process between two samples, and Postgres transactions per message. */
export function perMessage(
  from: HopSample,
  to: HopSample,
  messages = to.messages - from.messages,
): {
  cpuMs: Record<HopProcess, number>;
  wakeUps: Record<HopProcess, number>;
  transactions: number;
  messages: number;
  writes: Record<AppProcess, number>;
} {
  const per = (counter: HopCounter) =>
    Object.fromEntries(
      HOP_PROCESSES.map((name) => [
        name,
        [...to[counter][name]].reduce((total, [pid, value]) => total + value - (from[counter][name].get(pid) ?? 0), 0) /
          Math.max(messages, 1),
      ]),
    ) as Record<HopProcess, number>;
  const writes = Object.fromEntries(
    APPS.map((app) => [app, (to.writes[app] - from.writes[app]) / Math.max(messages, 1)]),
  ) as Record<AppProcess, number>;
  return {
    cpuMs: per('cpuMs'),
    wakeUps: per('wakeUps'),
    transactions: (to.transactions - from.transactions) / Math.max(messages, 1),
    messages,
    writes,
  };
}
