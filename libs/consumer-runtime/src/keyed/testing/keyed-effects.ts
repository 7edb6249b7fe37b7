import { CloudEvent } from '@app/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { ConsumerContext } from '../../handler';

/** What the keyed tests' handlers apply: one row per event, in the order the group applied them (serial id). */
export interface KeyedEffect {
  group: string;
  eventId: string;
  key: string;
  seq: number;
}

export async function createKeyedEffectsTable(dataSource: DataSource): Promise<void> {
  await dataSource.query(
    `CREATE TABLE IF NOT EXISTS keyed_effects (id serial PRIMARY KEY, "group" text, event_id text, key text, seq int)`,
  );
}

/** The writer the handlers queue their effect for: one statement for every event of a commit. */
export async function insertKeyedEffects(manager: EntityManager, rows: KeyedEffect[]): Promise<void> {
  await manager.query(
    `INSERT INTO keyed_effects ("group", event_id, key, seq)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])`,
    [
      rows.map((row) => row.group),
      rows.map((row) => row.eventId),
      rows.map((row) => row.key),
      rows.map((row) => row.seq),
    ],
  );
}

/** Queues the event's effect (its key and its `data.note` as the per-key sequence number). */
export function writeKeyedEffect(event: CloudEvent, ctx: ConsumerContext): void {
  const seq = Number((event.data as { note?: string }).note ?? 0);
  ctx.write(insertKeyedEffects, { group: ctx.group, eventId: event.id, key: event.subject ?? '', seq });
}

/** The group's effects in the order they were applied. */
export function keyedEffects(
  dataSource: DataSource,
  group: string,
): Promise<Array<{ event_id: string; key: string; seq: number }>> {
  return dataSource.query(`SELECT event_id, key, seq FROM keyed_effects WHERE "group" = $1 ORDER BY id`, [group]);
}

/** Every key's sequence numbers in the order applied, and the ids applied more than once. */
export function summarize(effects: Array<{ event_id: string; key: string; seq: number }>) {
  const perKey = new Map<string, number[]>();
  const seen = new Set<string>();
  const doubled: string[] = [];
  for (const row of effects) {
    if (seen.has(row.event_id)) doubled.push(row.event_id);
    seen.add(row.event_id);
    perKey.set(row.key, [...(perKey.get(row.key) ?? []), row.seq]);
  }
  const outOfOrder = [...perKey].filter(([, seqs]) => seqs.some((seq, index) => index > 0 && seq <= seqs[index - 1]));
  return { perKey, doubled, outOfOrder: outOfOrder.map(([key]) => key) };
}
