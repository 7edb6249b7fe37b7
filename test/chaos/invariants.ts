import { Client } from 'pg';
import { ChaosGroup, CheckContext, countRow, InvariantRow, noneRow, orderRow } from './groups/chaos-group';
import { AcceptedEvent, SentEvent } from './order-events';
import { Delivery } from './webhook-sender';

export interface RunRecord {
  deliveries: readonly Delivery[];
  offered: ReadonlyMap<string, SentEvent>;
  /** Answered 2xx: webhook id → the event id the ingress answered. */
  acceptedIds: ReadonlyMap<string, string>;
  /** When Postgres was unreachable (cut at the proxy). */
  outages: ReadonlyArray<{ startedAt: number; endedAt: number }>;
}

/** How long the sender waits for an answer. */
export const ANSWER_TIMEOUT_S = 30;

/** A 503 answered this long after the outage ended still counts as during it (requests in flight at the resume). */
const OUTAGE_GRACE_MS = 1000;

export function acceptedEvents(run: RunRecord): AcceptedEvent[] {
  return [...run.acceptedIds].map(([webhookId, id]) => ({ ...run.offered.get(webhookId)!, id }));
}

/** The context a group's checks get: its expected events and its poison. */
export function groupContext(
  db: Client,
  group: ChaosGroup,
  accepted: readonly AcceptedEvent[],
  providerUrls: Readonly<Record<string, string>>,
): CheckContext {
  return {
    db,
    accepted,
    expected: accepted.filter((event) => group.handles(event) && event.poisonFor !== group.group),
    poison: accepted.filter((event) => event.poisonFor === group.group),
    providerUrls,
  };
}

/** The request plane's promises: what each answer meant, and what it left in inbound_events and the outbox. */
export async function ingressInvariants(db: Client, run: RunRecord): Promise<InvariantRow[]> {
  const during = (delivery: Delivery) =>
    run.outages.some(
      (outage) => delivery.answeredAt >= outage.startedAt && delivery.sentAt <= outage.endedAt + OUTAGE_GRACE_MS,
    );
  const firstOutage = run.outages[0]?.startedAt ?? 0;
  const show = (delivery: Delivery) =>
    `${delivery.webhookId} ${delivery.kind} sent ${((delivery.sentAt - firstOutage) / 1000).toFixed(1)} s after the ` +
    `outage began → ${delivery.status || delivery.error} ${JSON.stringify(delivery.body ?? {})}`;
  const serverErrors = run.deliveries.filter((delivery) => delivery.status >= 500);
  const unavailable = serverErrors.filter((delivery) => delivery.status === 503);
  const rows: InvariantRow[] = [
    noneRow(
      'every 5xx is a 503 with Retry-After: during the Postgres outage, or overloaded',
      'other 5xx',
      serverErrors
        .filter(
          (delivery) =>
            delivery.status !== 503 ||
            !delivery.retryAfter ||
            (!during(delivery) && delivery.body?.error !== 'overloaded'),
        )
        .map(show),
    ),
    noneRow(
      'no 4xx (every delivery was valid, duplicates byte for byte)',
      '4xx',
      run.deliveries.filter((delivery) => delivery.status >= 400 && delivery.status < 500).map(show),
    ),
    noneRow(
      `every delivery answered within ${ANSWER_TIMEOUT_S} s (no reset)`,
      'unanswered',
      run.deliveries.filter((delivery) => delivery.status === 0).map(show),
    ),
  ];

  const stored = await db.query<{ id: string; sender_event_id: string }>(
    `SELECT id, sender_event_id FROM inbound_events WHERE source = 'shop'`,
  );
  const rowsByWebhookId = new Map<string, string[]>();
  for (const row of stored.rows)
    rowsByWebhookId.set(row.sender_event_id, [...(rowsByWebhookId.get(row.sender_event_id) ?? []), row.id]);
  const answeredIds = new Map<string, Set<string>>();
  for (const delivery of run.deliveries) {
    if (delivery.status < 200 || delivery.status >= 300 || !delivery.body?.id) continue;
    answeredIds.set(delivery.webhookId, (answeredIds.get(delivery.webhookId) ?? new Set()).add(delivery.body.id));
  }
  const notStored: string[] = [];
  for (const [webhookId, ids] of answeredIds) {
    const stored = rowsByWebhookId.get(webhookId) ?? [];
    if (stored.length !== 1 || ids.size !== 1 || !ids.has(stored[0]))
      notStored.push(`${webhookId}: answered ${[...ids].join('/')}, stored ${stored.join('/') || 'nothing'}`);
  }
  rows.push(
    noneRow('every event answered 2xx is in inbound_events once, under the id answered', 'mismatches', notStored),
  );

  // The row of an event comes from the one request that inserted it, and that request answered 202, unless its
  // connection broke during the write (503 `write_outcome_unknown`, which promises nothing) or the sender gave up.
  const inserters = new Map<string, number>();
  const inDoubt = new Set<string>();
  for (const delivery of run.deliveries) {
    if (delivery.status === 202 && delivery.body?.duplicate === false)
      inserters.set(delivery.webhookId, (inserters.get(delivery.webhookId) ?? 0) + 1);
    // In doubt: the ingress said the write may have happened, or the sender stopped waiting for its answer.
    const mayBeRecorded =
      delivery.body?.error === 'write_outcome_unknown' ||
      (delivery.body?.error === 'overloaded' && delivery.body?.mayBeRecorded === true);
    if ((delivery.status === 503 && mayBeRecorded) || delivery.status === 0) inDoubt.add(delivery.webhookId);
  }
  const leftByFailure: string[] = [];
  for (const [webhookId] of rowsByWebhookId) {
    const winners = inserters.get(webhookId) ?? 0;
    if (winners === 1 || (winners === 0 && inDoubt.has(webhookId))) continue;
    const others = run.deliveries.filter((delivery) => delivery.webhookId === webhookId && delivery.status !== 200);
    leftByFailure.push(`${webhookId}: ${winners} answers 202; others: ${others.map(show).join('; ') || 'none'}`);
  }
  const doubtful = run.deliveries.filter((delivery) => delivery.body?.error === 'write_outcome_unknown').length;
  rows.push(
    noneRow(
      `no 503 saying "nothing was recorded" left a row (${unavailable.length} answered 503, ${doubtful} of them "outcome unknown")`,
      'rows not from exactly one 202 or an outcome-unknown 503',
      leftByFailure,
    ),
  );

  // The ingress's rows: those of the types the run sends (a saga's commands and outcomes are the outbox's too).
  const sentTypes = [...new Set([...run.offered.values()].map((event) => event.type))];
  const outbox = await db.query<{ event_id: string; rows: number; published: number; parked: number }>(
    `SELECT event_id::text, count(*)::int AS rows, count(published_at)::int AS published,
            count(parked_at)::int AS parked
       FROM outbox WHERE headers->>'ce_type' = ANY($1) GROUP BY event_id`,
    [sentTypes],
  );
  const outboxByEvent = new Map(outbox.rows.map((row) => [row.event_id, row]));
  const unpublished: string[] = [];
  for (const [webhookId, id] of run.acceptedIds) {
    const row = outboxByEvent.get(id);
    if (!row || row.rows !== 1 || row.published !== 1 || row.parked !== 0)
      unpublished.push(`${webhookId} (${id}): ${row ? JSON.stringify(row) : 'no outbox row'}`);
  }
  rows.push(noneRow('every event answered 2xx has one outbox row, published', 'unpublished or missing', unpublished));
  const extra = outbox.rows
    .filter((row) => !new Set(run.acceptedIds.values()).has(row.event_id))
    .map((row) => row.event_id);
  rows.push(noneRow('no outbox row without an event answered 2xx', 'extra rows', extra));
  return rows;
}

/** What the run checks for every group, whatever it does: applied once, poison dead-lettered once, order kept. */
export async function groupInvariants(group: ChaosGroup, ctx: CheckContext): Promise<InvariantRow[]> {
  const name = group.group;
  const processed = await ctx.db.query<{ event_id: string; processed_at: Date }>(
    `SELECT event_id, processed_at FROM processed_events WHERE "group" = $1`,
    [name],
  );
  const processedAt = new Map(processed.rows.map((row) => [row.event_id, row.processed_at.getTime()]));
  const expectedIds = new Set(ctx.expected.map((event) => event.id));
  const missing = ctx.expected
    .filter((event) => !processedAt.has(event.id))
    .map((event) => `${event.webhookId} (${event.id})`);
  // An event the run sent that the group should not have applied; what the group applies besides (a saga's replies,
  // a participant's commands) is its checker's to count.
  const acceptedIds = new Set(ctx.accepted.map((event) => event.id));
  const extra = processed.rows
    .filter((row) => acceptedIds.has(row.event_id) && !expectedIds.has(row.event_id))
    .map((row) => row.event_id);

  const letters = await ctx.db.query<{ event_id: string; rows: number; status: string }>(
    `SELECT event_id, count(*)::int AS rows, string_agg(status, ',') AS status
       FROM dead_letters WHERE "group" = $1 GROUP BY event_id`,
    [name],
  );
  const lettersByEvent = new Map(letters.rows.map((row) => [row.event_id, row]));
  const poisonIds = new Set(ctx.poison.map((event) => event.id));
  const poisonWrong = ctx.poison
    .filter((event) => lettersByEvent.get(event.id)?.rows !== 1)
    .map((event) => `${event.webhookId}: ${lettersByEvent.get(event.id)?.rows ?? 0} dead letters`);
  const lettersExtra = letters.rows
    .filter((row) => !poisonIds.has(row.event_id))
    .map((row) => `${row.event_id} (${row.status})`);

  return [
    countRow(
      `${name}: expected events applied (processed_events)`,
      ctx.expected.length,
      ctx.expected.length - missing.length,
      missing.slice(0, 5),
    ),
    noneRow(`${name}: nothing else applied (no poison, no event it ignores)`, 'extra rows', extra),
    noneRow(
      `${name}: each poison event in the dead-letter store once (${ctx.poison.length} poison)`,
      'poison not there once',
      poisonWrong,
    ),
    noneRow(`${name}: no other dead letter`, 'other dead letters', lettersExtra),
    orderRow(
      `${name}: per-aggregate order (processed_at along seq)`,
      ctx.expected,
      (event) => processedAt.get(event.id),
      false,
    ),
  ];
}

/** What still keeps the run from being drained; empty once it is. */
export async function drainWaits(
  db: Client,
  groups: ChaosGroup[],
  contexts: Map<string, CheckContext>,
): Promise<string[]> {
  const waits: string[] = [];
  const [{ backlog }] = (
    await db.query<{ backlog: number }>(`SELECT count(*)::int AS backlog FROM outbox WHERE published_at IS NULL`)
  ).rows;
  if (backlog > 0) waits.push(`${backlog} outbox rows unpublished`);
  for (const group of groups) {
    const ctx = contexts.get(group.group)!;
    const [{ applied }] = (
      await db.query<{ applied: number }>(
        `SELECT count(*)::int AS applied FROM processed_events WHERE "group" = $1 AND event_id = ANY($2)`,
        [group.group, ctx.expected.map((event) => event.id)],
      )
    ).rows;
    if (applied < ctx.expected.length) waits.push(`${group.group}: ${ctx.expected.length - applied} events to apply`);
    const [{ letters }] = (
      await db.query<{ letters: number }>(
        `SELECT count(DISTINCT event_id)::int AS letters FROM dead_letters WHERE "group" = $1 AND event_id = ANY($2)`,
        [group.group, ctx.poison.map((event) => event.id)],
      )
    ).rows;
    if (letters < ctx.poison.length) waits.push(`${group.group}: ${ctx.poison.length - letters} dead letters to index`);
    const inHand = await group.inHand(ctx);
    if (inHand > 0) waits.push(`${group.group}: ${inHand} in hand`);
  }
  return waits;
}
