import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { LOCK_OPEN_ENDPOINTS } from './deliveries.repository';

const SLOW_ENDPOINTS = 8;
const BACKLOG = 2_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Rows read from a table by every node of a plan (kept and filtered out, × loops). */
function rowsRead(node: PlanNode, table = 'webhook_deliveries'): number {
  const own =
    node['Relation Name'] === table
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, table), 0);
}

/** The nodes of a plan that scan a table sequentially. */
function seqScans(node: PlanNode, table: string): number {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] === table ? 1 : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + seqScans(child, table), 0);
}

async function explainLockOpen(client: Client): Promise<PlanNode> {
  const [{ 'QUERY PLAN': explained }] = (
    await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE lock_open('{}', '{}', '{}', '{}', 8, 64)`)
  ).rows as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
  return explained[0].Plan;
}

describe("the claim's choice of endpoints with deliveries due (real Postgres)", () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('probes each endpoint once, whatever its backlog, in the plan prepared on an empty table', async () => {
    // Prepared and planned while the table is empty, as a process's first claim does; the plan is kept (no ANALYZE
    // in between, as before autovacuum comes round).
    await client.query(`SET plan_cache_mode = force_generic_plan`);
    await client.query(`PREPARE lock_open AS ${LOCK_OPEN_ENDPOINTS}`);
    await client.query(`EXECUTE lock_open('{}', '{}', '{}', '{}', 8, 64)`);
    const endpoints = Array.from({ length: SLOW_ENDPOINTS + 1 }, () => randomUUID());
    for (const [index, id] of endpoints.entries())
      await client.query(
        `INSERT INTO webhook_endpoints (id, url, event_types) VALUES ($1, $2, ARRAY['shop.order.placed.v1'])`,
        [id, `https://hooks.test/${index}`],
      );
    // Eight endpoints with a backlog of due deliveries (slow receivers), one with a single delivery due.
    await client.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key,
                                       ordered, payload, source_topic, source_partition, source_offset, next_attempt_at)
       SELECT e.id, 'evt_' || e.id || '_' || n, 'shop.order.placed.v1', 'shop', now(), 'ord_' || n, false, '{}',
              'shop.orders', 0, n::text, now() - interval '1 second'
         FROM unnest($1::uuid[]) WITH ORDINALITY AS e(id, position)
        CROSS JOIN LATERAL generate_series(1, CASE WHEN e.position <= $2 THEN $3 ELSE 1 END) AS n`,
      [endpoints, SLOW_ENDPOINTS, BACKLOG],
    );

    const plan = await explainLockOpen(client);
    const rows = (await client.query(`EXECUTE lock_open('{}', '{}', '{}', '{}', 8, 64)`)).rows;

    expect(rows).toHaveLength(endpoints.length);
    // One due delivery found per endpoint, and one more per endpoint by the walk from one endpoint to the next; the
    // EXISTS form read every due delivery of every endpoint (68,013 rows).
    expect(rowsRead(plan)).toBeLessThanOrEqual(3 * endpoints.length);
  });

  it('reads only the endpoints with deliveries queued, not the 20,000 idle ones of many customers', async () => {
    await client.query(
      `INSERT INTO webhook_endpoints (id, url, event_types)
       SELECT gen_random_uuid(), 'https://hooks.test/idle/' || n, ARRAY['shop.order.placed.v1']
         FROM generate_series(1, 20000) AS n`,
    );
    await client.query('ANALYZE webhook_endpoints');
    await client.query('ANALYZE webhook_deliveries');
    const plan = await explainLockOpen(client);
    expect(seqScans(plan, 'webhook_endpoints')).toBe(0);
    // The nine endpoints of the test above, each read about once: none of the idle ones.
    expect(rowsRead(plan, 'webhook_endpoints')).toBeLessThanOrEqual(3 * (SLOW_ENDPOINTS + 1));
    expect((await client.query(`EXECUTE lock_open('{}', '{}', '{}', '{}', 8, 64)`)).rows).toHaveLength(
      SLOW_ENDPOINTS + 1,
    );
  });
});
