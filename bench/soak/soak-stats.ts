import { Client } from 'pg';
import { rssMb } from '../lib/process-memory';

/** The tables a soak run watches: what the path writes, and what retention must keep bounded. */
export const SOAK_TABLES = ['inbound_events', 'outbox', 'processed_events', 'ledger_entries'] as const;

export interface TableStats {
  table: string;
  liveRows: number;
  deadRows: number;
  tableMb: number;
  indexMb: number;
  /** Each index's size, MB: growth at a steady row count is bloat. */
  indexes: Record<string, number>;
  autovacuums: number;
  autoanalyzes: number;
}

/** Row estimates, dead tuples, sizes and autovacuum counts from the statistics views (no table scan). */
export async function tableStats(db: Client): Promise<TableStats[]> {
  const { rows } = await db.query<{
    table: string;
    live: string;
    dead: string;
    table_bytes: string;
    index_bytes: string;
    autovacuums: string;
    autoanalyzes: string;
    indexes: Record<string, string> | null;
  }>(
    `SELECT t.relname AS table, t.n_live_tup AS live, t.n_dead_tup AS dead,
            pg_table_size(t.relid) AS table_bytes, pg_indexes_size(t.relid) AS index_bytes,
            t.autovacuum_count AS autovacuums, t.autoanalyze_count AS autoanalyzes,
            (SELECT jsonb_object_agg(i.indexrelname, pg_relation_size(i.indexrelid))
               FROM pg_stat_user_indexes i WHERE i.relid = t.relid) AS indexes
       FROM pg_stat_user_tables t WHERE t.relname = ANY($1)`,
    [SOAK_TABLES],
  );
  const mb = (bytes: string | number) => Number(bytes) / 1048576;
  return SOAK_TABLES.map((table) => rows.find((row) => row.table === table)!)
    .filter(Boolean)
    .map((row) => ({
      table: row.table,
      liveRows: Number(row.live),
      deadRows: Number(row.dead),
      tableMb: mb(row.table_bytes),
      indexMb: mb(row.index_bytes),
      indexes: Object.fromEntries(Object.entries(row.indexes ?? {}).map(([name, bytes]) => [name, mb(bytes)])),
      autovacuums: Number(row.autovacuums),
      autoanalyzes: Number(row.autoanalyzes),
    }));
}

/** The sum of a Prometheus counter's samples (all label sets) from an app's /metrics. */
export async function scrapeCounter(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Insert → ledger latency (ms) of the events the ledger applied after `since`: p50, p99, and how many. */
export async function recentLag(db: Client, since: Date): Promise<{ p50: number; p99: number; count: number }> {
  const { rows } = await db.query<{ p50: number | null; p99: number | null; count: string }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99,
            count(*) AS count
       FROM (SELECT extract(epoch FROM p.processed_at - e.received_at) * 1000 AS ms
               FROM processed_events p JOIN inbound_events e ON e.id::text = p.event_id
              WHERE p."group" = 'ledger' AND p.processed_at > $1) AS lag`,
    [since],
  );
  return { p50: Number(rows[0].p50 ?? NaN), p99: Number(rows[0].p99 ?? NaN), count: Number(rows[0].count) };
}

export interface Sample {
  at: number;
  offered: number;
  accepted: number;
  published: number;
  applied: number;
  lag: { p50: number; p99: number; count: number };
  rssMb: Record<string, number>;
  tables: TableStats[];
}

/** When a counter's samples first reached `value` (linear between two samples), in ms since the epoch. */
export function timeReaching(samples: Sample[], pick: (sample: Sample) => number, value: number): number {
  for (let index = 1; index < samples.length; index += 1) {
    const [before, after] = [samples[index - 1], samples[index]];
    if (pick(after) >= value) {
      const span = pick(after) - pick(before);
      return span <= 0 ? after.at : before.at + ((value - pick(before)) / span) * (after.at - before.at);
    }
  }
  return NaN;
}

export function memoryOf(pids: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(pids).map(([app, pid]) => [app, rssMb(pid)]));
}
