import { Client } from 'pg';
import { AcceptedEvent, OrderData, SentEvent } from '../order-events';

/** One row of the final table. */
export interface InvariantRow {
  invariant: string;
  expected: string;
  observed: string;
  ok: boolean;
  /** A few offending examples, printed under the table when the row fails. */
  examples?: string[];
}

/** A development provider or receiver a group calls: started once per run as a child process, never faulted. */
export interface ChaosProvider {
  name: string;
  /** Its entry in the build, e.g. `apps/consumers/src/notifier/dev-provider/main.js`. */
  entry: string;
  /** Its environment, given the port it must listen on. */
  env(port: number): Record<string, string>;
  /** What it prints once it listens. */
  readyLine: string;
}

/** What a group's set-up may use. */
export interface PrepareContext {
  /** Straight to Postgres (not through the run's proxy). */
  db: Client;
  providerUrls: Readonly<Record<string, string>>;
  /** `http://127.0.0.1:<port>` of each ingress. */
  ingressUrls: readonly string[];
  /** `http://127.0.0.1:<port>` of the admin app (the operator plane). */
  adminUrl: string;
  /** Bearer token of its `/admin` API. */
  adminToken: string;
}

/** Every consumer group the run starts: each checked group and its participants. */
export function consumerGroupNames(groups: readonly ChaosGroup[]): string[] {
  return groups.flatMap((group) => [group.group, ...(group.participants ?? [])]);
}

/** What a group's checker may look at once the run has drained. */
export interface CheckContext {
  /** Straight to Postgres (not through the run's proxy). */
  db: Client;
  /** Every event the ingress answered 2xx for, with the id it answered. */
  accepted: readonly AcceptedEvent[];
  /** Events of this group that it must have applied once: accepted, handled by it, and not its poison. */
  expected: readonly AcceptedEvent[];
  /** Events this group must have dead-lettered (its poison). */
  poison: readonly AcceptedEvent[];
  /** `http://127.0.0.1:<port>` of every provider, by name. */
  providerUrls: Readonly<Record<string, string>>;
}

/**
 * How a consumer group takes part in the chaos run: one small file per group (`groups/<group>.checker.ts`), listed
 * in `groups/index.ts`. The run checks for every group that each expected event has its `processed_events` row
 * once, that its poison (and nothing else) is in the dead-letter store once, and that each aggregate's events were
 * applied in sequence; the checker adds what only the group knows: its effect, counted where it lands.
 */
export interface ChaosGroup {
  /** The consumer group, as in CONSUMER_GROUPS. */
  group: string;
  /**
   * Other consumer groups it brings along and checks itself (a saga's participants, which act on commands rather
   * than on the events the run sends): they run in the consumers processes too.
   */
  participants?: string[];
  providers: ChaosProvider[];
  /** What the consumers processes need for this group (provider URLs, its business rules' settings). */
  consumerEnv(providerUrls: Readonly<Record<string, string>>): Record<string, string>;
  /** What the admin app needs for it, if anything (e.g. hosts its outbound endpoints may point at). */
  adminEnv?(providerUrls: Readonly<Record<string, string>>): Record<string, string>;
  /**
   * Set-up once the apps run and before the traffic starts, if the group needs any: e.g. an outbound-webhooks group
   * registers an endpoint that points at its receiver, through the admin API.
   */
  prepare?(ctx: PrepareContext): Promise<void>;
  /** The events this group acts on (the others it ignores, as its handlers do). */
  handles(event: SentEvent): boolean;
  /** A deterministic business rule of this group that a contract-valid event can break: the run's poison. */
  poison?: { rule: string; apply(data: OrderData): void };
  /** Work the group still has in hand after its events were consumed (e.g. tasks not done); 0 once drained. */
  inHand(ctx: CheckContext): Promise<number>;
  /** The group's own invariants: its effect once per expected event, in order per aggregate where it can tell. */
  check(ctx: CheckContext): Promise<InvariantRow[]>;
}

/** A row comparing two counts, with examples of what differs. */
export function countRow(invariant: string, expected: number, observed: number, examples: string[] = []): InvariantRow {
  return { invariant, expected: String(expected), observed: String(observed), ok: expected === observed, examples };
}

/** A row that holds when no offender was found. */
export function noneRow(invariant: string, what: string, offenders: string[]): InvariantRow {
  return {
    invariant,
    expected: `no ${what}`,
    observed: offenders.length === 0 ? `none` : `${offenders.length} ${what}`,
    ok: offenders.length === 0,
    examples: offenders.slice(0, 5),
  };
}

/**
 * The order row of a group: the orders with two or more of its events, each applied in sequence by `position`. A
 * group that acts on one event per order has nothing to order, and the row says so.
 */
export function orderRow(
  invariant: string,
  events: readonly AcceptedEvent[],
  position: (event: AcceptedEvent) => number | undefined,
  strict: boolean,
): InvariantRow {
  const perOrder = new Map<string, number>();
  for (const event of events) perOrder.set(event.orderId, (perOrder.get(event.orderId) ?? 0) + 1);
  const sequences = [...perOrder.values()].filter((count) => count > 1).length;
  if (sequences === 0) return { invariant, expected: 'nothing to order', observed: 'one event per order', ok: true };
  const offenders = outOfSequence(events, position, strict);
  return {
    invariant: `${invariant}, ${sequences} orders of 2+ events`,
    expected: 'none out of sequence',
    observed: offenders.length === 0 ? 'none' : `${offenders.length} out of sequence`,
    ok: offenders.length === 0,
    examples: offenders.slice(0, 5),
  };
}

/**
 * Orders whose events, taken in `seq` order, were not applied in that order by `position` (a row id, a time, an
 * index). `strict`: equal positions count as out of order (ids), else they may tie (one transaction's time).
 */
export function outOfSequence(
  events: readonly AcceptedEvent[],
  position: (event: AcceptedEvent) => number | undefined,
  strict: boolean,
): string[] {
  const byOrder = new Map<string, AcceptedEvent[]>();
  for (const event of events) byOrder.set(event.orderId, [...(byOrder.get(event.orderId) ?? []), event]);
  const offenders: string[] = [];
  for (const [orderId, orderEvents] of byOrder) {
    const sorted = [...orderEvents].sort((a, b) => a.seq - b.seq);
    for (let i = 1; i < sorted.length; i++) {
      const before = position(sorted[i - 1]);
      const after = position(sorted[i]);
      if (before === undefined || after === undefined) continue;
      if (strict ? after <= before : after < before) {
        offenders.push(`${orderId}: seq ${sorted[i].seq} applied before seq ${sorted[i - 1].seq}`);
        break;
      }
    }
  }
  return offenders;
}
