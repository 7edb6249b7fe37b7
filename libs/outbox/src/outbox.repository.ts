import { QueryRows } from '@app/db';
import { NewOutboxRow, OutboxRow } from './outbox-row';

const OUTBOX_COLUMNS = 'lane, event_id, topic, key, value, headers';

/**
 * The outbox INSERT as the body of a data-modifying CTE, for the one writer that must insert its own row and the
 * outbox row in ONE statement (the ingress): it inserts the outbox row for the `id` of each row of the CTE `from`
 * (none when `from` is empty) and returns its `event_id`. Its parameters are `$first` to `$first + 4`, in the order
 * of `outboxRowFromParams`. Every other writer calls `addToOutbox`.
 */
export function insertOutboxRowFrom(from: string, first: number): string {
  const [lane, topic, key, value, headers] = [0, 1, 2, 3, 4].map((offset) => `$${first + offset}`);
  return `INSERT INTO outbox (${OUTBOX_COLUMNS})
         SELECT ${lane}, ${from}.id, ${topic}, ${key}, ${value}, ${headers} FROM ${from}
         RETURNING event_id`;
}

/** The parameters of `insertOutboxRowFrom`: the row's values but its event id, which the CTE supplies. */
export const outboxRowFromParams = (row: NewOutboxRow): unknown[] => [
  row.lane,
  row.topic,
  row.key,
  row.value,
  row.headers,
];

/**
 * `insertOutboxRowFrom` for many rows at once (the ingress's group commit): the outbox rows given as arrays, of which
 * those whose event id is an `id` of the CTE `from` are inserted, in the order given (so ids, and with them the
 * relay's order within a key, follow it). Its parameters are `$first` to `$first + 5`, the arrays of
 * `outboxRowsFromParams`.
 */
export function insertOutboxRowsFrom(from: string, first: number): string {
  const [lane, eventId, topic, key, value, headers] = [0, 1, 2, 3, 4, 5].map((offset) => `$${first + offset}`);
  return `INSERT INTO outbox (${OUTBOX_COLUMNS})
         SELECT given.lane, given.event_id, given.topic, given.key, given.value, given.headers
           FROM unnest(${lane}::smallint[], ${eventId}::uuid[], ${topic}::text[], ${key}::text[], ${value}::text[],
                       ${headers}::jsonb[]) WITH ORDINALITY AS given(lane, event_id, topic, key, value, headers, position)
           JOIN ${from} ON ${from}.id = given.event_id
          ORDER BY given.position
         RETURNING event_id`;
}

/** The parameters of `insertOutboxRowsFrom`: one array per column, in the rows' order. */
export function outboxRowsFromParams(rows: readonly NewOutboxRow[]): unknown[] {
  const lanes = new Array<number>(rows.length);
  const eventIds = new Array<string>(rows.length);
  const topics = new Array<string>(rows.length);
  const keys = new Array<string>(rows.length);
  const values = new Array<string>(rows.length);
  const headers = new Array<string>(rows.length);
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index];
    lanes[index] = row.lane;
    eventIds[index] = row.eventId;
    topics[index] = row.topic;
    keys[index] = row.key;
    values[index] = row.value;
    headers[index] = JSON.stringify(row.headers);
  }
  return [lanes, eventIds, topics, keys, values, headers];
}

/** A row the broker rejected for good, to park with the broker's reason. */
export interface RowToPark {
  id: string;
  error: string;
}

/**
 * The outbox rows not yet published, per topic: what `/admin/backlog`, `hookrail outbox backlog` and the relay's
 * gauges show.
 */
export interface OutboxBacklog {
  /** Rows not yet published, parked rows included. */
  unpublished: number;
  /** Of those, the parked rows: the broker rejected them for good; they wait for an operator. */
  parked: number;
  /** Age of the oldest unpublished row in seconds, parked rows included (0 when there is none). */
  oldestAgeSeconds: number;
  byTopic: Array<{ topic: string; unpublished: number; oldestAgeSeconds: number }>;
}

/** One outbox row of an event as its trail shows it. */
export interface OutboxEventRow {
  id: string;
  lane: number;
  topic: string;
  key: string;
  createdAt: Date;
  publishedAt: Date | null;
  /** When the broker rejected it for good (the column `parked_at`); null unless parked. */
  parkedAt: Date | null;
  attempts: number;
  lastError: string | null;
}

/**
 * Every outbox statement, one named method each: the writers' insert, the relay's claim, mark, park and retention,
 * and the reads of the ingress (backpressure, event status, console charts), the operators (backlog, an event's
 * trail) and the relay's gauges. A row is pending until published; a parked row (`parked_at` set: the broker
 * rejected it for good) waits for an operator, and every later row of its key waits behind it.
 */
export class OutboxRepository {
  constructor(private readonly rows: QueryRows) {}

  /** One new row, in the transaction of the `QueryRows` given. Returns its id. */
  async insert(row: NewOutboxRow): Promise<string> {
    const [inserted] = await this.rows<{ id: string }>(
      `INSERT INTO outbox (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [row.lane, row.eventId, row.topic, row.key, row.value, row.headers],
    );
    return inserted.id;
  }

  /** Many new rows in one statement, in the order given (ids, and with them each key's publish order, follow it). */
  async insertMany(rows: readonly NewOutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.rows(
      `INSERT INTO outbox (${OUTBOX_COLUMNS})
       SELECT lane, event_id, topic, key, value, headers
         FROM unnest($1::smallint[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::jsonb[]) WITH ORDINALITY
              AS given(lane, event_id, topic, key, value, headers, position)
        ORDER BY position`,
      outboxRowsFromParams(rows),
    );
  }

  /** Parks rows the broker rejected for good (the column `parked_at` holds the time they were parked). */
  async markParked(rows: RowToPark[]): Promise<number> {
    const [row] = await this.rows<{ count: number }>(
      `WITH parked AS (
         UPDATE outbox SET parked_at = now(), attempts = attempts + 1, last_error = rejected.error
           FROM unnest($1::bigint[], $2::text[]) AS rejected(id, error)
          WHERE outbox.id = rejected.id
         RETURNING 1)
       SELECT count(*)::int AS count FROM parked`,
      [rows.map((parked) => parked.id), rows.map((parked) => parked.error)],
    );
    return row.count;
  }

  /** After a failed attempt that rolled back: count it and keep its error for operators. */
  async recordFailedAttempt(ids: string[], error: string): Promise<void> {
    await this.rows(
      `WITH failed AS (
         UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::bigint[]) AND published_at IS NULL RETURNING 1)
       SELECT count(*)::int AS count FROM failed`,
      [ids, error],
    );
  }

  /** Deletes up to `limit` rows published before `cutoff`; returns how many. */
  async deletePublishedBefore(cutoff: Date, limit: number): Promise<number> {
    const [row] = await this.rows<{ count: number }>(
      `WITH doomed AS (
         SELECT id FROM outbox WHERE published_at < $1 ORDER BY published_at LIMIT $2),
       deleted AS (
         DELETE FROM outbox USING doomed WHERE outbox.id = doomed.id RETURNING 1)
       SELECT count(*)::int AS count FROM deleted`,
      [cutoff, limit],
    );
    return row.count;
  }

  /** Unpublished rows, parked ones included, counted up to `cap` only: cheap however large the backlog is. */
  async countUnpublished(cap: number): Promise<number> {
    const [row] = await this.rows<{ count: number }>(
      `SELECT count(*)::int AS count FROM (SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT $1) unpublished`,
      [cap],
    );
    return row.count;
  }

  /** The event's outbox row, if retention has not pruned it yet (it prunes only published rows). */
  async findPublication(
    eventId: string,
  ): Promise<{ publishedAt: Date | null; parkedAt: Date | null; lastError: string | null } | undefined> {
    const [row] = await this.rows<{ published_at: Date | null; parked_at: Date | null; last_error: string | null }>(
      `SELECT published_at, parked_at, last_error FROM outbox WHERE event_id = $1 ORDER BY id LIMIT 1`,
      [eventId],
    );
    return row && { publishedAt: row.published_at, parkedAt: row.parked_at, lastError: row.last_error };
  }

  /** Every outbox row of the event, oldest first, with its publication state: what an event's trail shows. */
  async rowsOfEvent(eventId: string): Promise<OutboxEventRow[]> {
    const rows = await this.rows<{
      id: string;
      lane: number;
      topic: string;
      key: string;
      created_at: Date;
      published_at: Date | null;
      parked_at: Date | null;
      attempts: number;
      last_error: string | null;
    }>(
      `SELECT id, lane, topic, key, created_at, published_at, parked_at, attempts, last_error
         FROM outbox WHERE event_id = $1::text::uuid ORDER BY id`,
      [eventId],
    );
    return rows.map((row) => ({
      id: row.id,
      lane: row.lane,
      topic: row.topic,
      key: row.key,
      createdAt: new Date(row.created_at),
      publishedAt: row.published_at && new Date(row.published_at),
      parkedAt: row.parked_at && new Date(row.parked_at),
      attempts: row.attempts,
      lastError: row.last_error,
    }));
  }

  /** Rows the broker acknowledged in [from, to): the console's published chart. */
  async countPublishedBetween(from: Date, to: Date): Promise<number> {
    const [row] = await this.rows<{ count: number }>(
      `SELECT count(*)::int AS count FROM outbox WHERE published_at >= $1 AND published_at < $2`,
      [from, to],
    );
    return row.count;
  }

  async backlog(): Promise<OutboxBacklog> {
    const rows = await this.rows<{ topic: string; unpublished: number; parked: number; age: number }>(
      `SELECT topic, count(*)::int AS unpublished, count(*) FILTER (WHERE parked_at IS NOT NULL)::int AS parked,
              COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS age
         FROM outbox WHERE published_at IS NULL GROUP BY topic ORDER BY unpublished DESC, topic`,
    );
    return {
      unpublished: rows.reduce((sum, row) => sum + row.unpublished, 0),
      parked: rows.reduce((sum, row) => sum + row.parked, 0),
      oldestAgeSeconds: Math.round(Math.max(0, ...rows.map((row) => row.age))),
      byTopic: rows.map((row) => ({
        topic: row.topic,
        unpublished: row.unpublished,
        oldestAgeSeconds: Math.round(row.age),
      })),
    };
  }

  /** Creation time of the oldest pending row (unpublished, not parked), or null when there is none. */
  async oldestPendingAt(): Promise<Date | null> {
    const [row] = await this.rows<{ oldest: Date | null }>(
      `SELECT min(created_at) AS oldest FROM outbox WHERE published_at IS NULL AND parked_at IS NULL`,
    );
    return row.oldest;
  }
}

/**
 * The relay's claim: locks the next unpublished rows of the given lanes ($1), oldest first within each lane, at most
 * $2, skipping rows of a key that has a parked row. One index probe per lane; lanes are visited in the order given,
 * so a caller that rotates the order shares a full batch fairly.
 */
const CLAIM = `SELECT claimed.*
    FROM unnest($1::smallint[]) WITH ORDINALITY AS owned(lane, position)
    CROSS JOIN LATERAL (
      SELECT o.id, o.lane, o.event_id, o.topic, o.key, o.value, o.headers, o.created_at
        FROM outbox o
       WHERE o.lane = owned.lane AND o.published_at IS NULL AND o.parked_at IS NULL
         AND NOT EXISTS (
           SELECT 1 FROM outbox parked
            WHERE parked.lane = o.lane AND parked.key = o.key AND parked.parked_at IS NOT NULL AND parked.published_at IS NULL)
       ORDER BY o.id
       LIMIT $2
         FOR UPDATE OF o SKIP LOCKED
    ) AS claimed
   LIMIT $2`;

/** Marks the rows ($1) the broker acknowledged; `published_at` is the time of the acknowledgement. */
const MARK_PUBLISHED = `UPDATE outbox SET published_at = clock_timestamp(), attempts = attempts + 1, last_error = NULL
   WHERE id = ANY($1::bigint[])`;

/**
 * The relay's claim and mark, prepared once on its lane connection (SQL `PREPARE`, planned as a protocol-level
 * prepared statement is), so that `claimStatement` and `markPublishedStatement` can go with the BEGIN and the COMMIT
 * in one simple-protocol query each: one round trip where a parameterised statement would take its own.
 */
export const PREPARE_RELAY_STATEMENTS =
  `PREPARE hookrail_relay_claim (smallint[], int) AS ${CLAIM}; ` +
  `PREPARE hookrail_relay_mark (bigint[]) AS ${MARK_PUBLISHED}`;

/** Runs the prepared claim for these lanes (integers, checked); its rows go through `claimedRows`. */
export function claimStatement(lanes: readonly number[], limit: number): string {
  if (!lanes.every(Number.isInteger) || !Number.isInteger(limit)) throw new Error('lanes and limit must be integers');
  return `EXECUTE hookrail_relay_claim('{${lanes.join(',')}}', ${limit})`;
}

/** The rows the claim returned, ordered by id. */
export function claimedRows(rows: unknown[]): OutboxRow[] {
  return (rows as RawRow[]).map(fromRaw).sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
}

/** Runs the prepared mark for these rows (bigints as digits, checked). */
export function markPublishedStatement(ids: readonly string[]): string {
  if (!ids.every((id) => /^\d+$/.test(id))) throw new Error('outbox ids must be digits');
  return `EXECUTE hookrail_relay_mark('{${ids.join(',')}}')`;
}

interface RawRow {
  id: string;
  lane: number;
  event_id: string;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  created_at: Date;
}

function fromRaw(raw: RawRow): OutboxRow {
  return {
    id: raw.id,
    lane: raw.lane,
    eventId: raw.event_id,
    topic: raw.topic,
    key: raw.key,
    value: raw.value,
    headers: raw.headers,
    createdAt: raw.created_at,
  };
}
