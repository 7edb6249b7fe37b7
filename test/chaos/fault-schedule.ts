import { Random } from './random';

/** Which broker a broker fault takes down: the active controller (quorum leader), or the leader of a partition. */
export type BrokerChoice = { role: 'controller' } | { role: 'leader'; partition: number };

/** One fault, `at` milliseconds after the traffic started. */
export type PlannedFault =
  | { kind: 'kill-process'; at: number; target: string; pauseMs: number }
  | { kind: 'broker'; at: number; broker: BrokerChoice; how: 'stop' | 'kill'; downMs: number }
  | { kind: 'postgres-outage'; at: number; durationMs: number }
  | { kind: 'consumer-stall'; at: number; target: string; durationMs: number };

export interface ScheduleOptions {
  /** Length of the traffic; every fault ends before it does. */
  seconds: number;
  /** Processes a `kill -9` may hit (relays, consumers). */
  killTargets: readonly string[];
  /** Consumer processes whose Kafka traffic may stall. */
  stallTargets: readonly string[];
  /** Partitions of the orders topic (a broker fault names one and takes its leader down). */
  partitions: number;
  /** How long the consumers' link to Kafka stalls: longer than their session timeout, so the group rebalances. */
  stallMs: number;
  /** The Postgres outage. */
  outageMs: number;
}

export const MIN_SECONDS = 30;

/**
 * The faults of a run, from its seed alone: `kill -9` of a random relay or consumers process every 3–7 s (restarted
 * 1–4 s later; never the stalled one around its stall), a broker stopped or killed every 14–20 s (the leader of a
 * random partition; the controller once, as the first or second broker fault),
 * one Postgres outage and one stall between a consumers process and Kafka, at random times in the middle. Faults of
 * different kinds overlap on purpose.
 */
export function planFaults(random: Random, options: ScheduleOptions): PlannedFault[] {
  const end = options.seconds * 1000;
  if (options.seconds < MIN_SECONDS) throw new Error(`a chaos run lasts at least ${MIN_SECONDS} seconds`);
  const faults: PlannedFault[] = [];
  const margin = 2000;

  const outageAt = Math.min(random.between(0.2, 0.55) * end, end - margin - options.outageMs);
  faults.push({ kind: 'postgres-outage', at: Math.round(outageAt), durationMs: options.outageMs });

  const stallAt = Math.max(2000, Math.min(random.between(0.35, 0.7) * end, end - margin - options.stallMs));
  faults.push({
    kind: 'consumer-stall',
    at: Math.round(stallAt),
    target: random.pick(options.stallTargets),
    durationMs: options.stallMs,
  });

  const brokerFaults: Array<Extract<PlannedFault, { kind: 'broker' }>> = [];
  for (let at = random.between(5000, 8000); ; at += random.between(14_000, 20_000)) {
    const downMs = Math.round(random.between(4000, 8000));
    if (at + downMs + margin > end) break;
    const broker: BrokerChoice = { role: 'leader', partition: random.int(0, options.partitions - 1) };
    brokerFaults.push({ kind: 'broker', at: Math.round(at), broker, how: random.pick(['stop', 'kill']), downMs });
  }
  // The controller once, early: later broker faults may not get their turn on a slow machine (each waits for the
  // cluster to be fully replicated again).
  if (brokerFaults.length > 0)
    brokerFaults[random.int(0, Math.min(1, brokerFaults.length - 1))].broker = { role: 'controller' };
  faults.push(...brokerFaults);

  // The stalled process is left alone from a while before its stall (a restart takes seconds, and the process must be
  // a member of its groups when the stall begins) until a little after: the stall is to show what a member that
  // comes back late does.
  const stall = faults.find((fault) => fault.kind === 'consumer-stall')!;
  const stalled = (at: number, target: string) =>
    stall.kind === 'consumer-stall' &&
    target === stall.target &&
    at >= stall.at - 15_000 &&
    at <= stall.at + stall.durationMs + 5000;
  for (let at = random.between(3000, 5000); at + margin < end; at += random.between(3000, 7000)) {
    const targets = options.killTargets.filter((target) => !stalled(at, target));
    faults.push({
      kind: 'kill-process',
      at: Math.round(at),
      target: random.pick(targets),
      pauseMs: Math.round(random.between(1000, 4000)),
    });
  }
  return faults.sort((a, b) => a.at - b.at);
}

/** One line per fault, as the run prints its plan. */
export function describeFault(fault: PlannedFault): string {
  const at = `${(fault.at / 1000).toFixed(1).padStart(6)} s`;
  switch (fault.kind) {
    case 'kill-process':
      return `${at}  kill -9 ${fault.target}, restart after ${fault.pauseMs} ms`;
    case 'broker': {
      const which =
        fault.broker.role === 'controller' ? 'the controller' : `the leader of partition ${fault.broker.partition}`;
      return `${at}  ${fault.how} ${which}, restart after ${fault.downMs} ms`;
    }
    case 'postgres-outage':
      return `${at}  Postgres unreachable for ${fault.durationMs} ms`;
    case 'consumer-stall':
      return `${at}  ${fault.target} ↔ Kafka stalled for ${fault.durationMs} ms`;
  }
}
