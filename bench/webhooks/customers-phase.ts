import { readFileSync } from 'node:fs';
import { Client } from 'pg';

/** The customer whose events the customers phase sends; the others' endpoints never get an event. */
export const MEASURED_CUSTOMER = 'bench_cus_1';

/**
 * BENCH_CUSTOMERS customers with two endpoints each, in two statements: the measured customer's are `measured` (made
 * through the API, so that they have secrets, then given to it), the others' point at a port nothing listens on.
 */
export async function seedCustomers(db: Client, customers: number, measured: string[]): Promise<void> {
  await db.query(
    `INSERT INTO webhook_customers (id, uid, name)
     SELECT gen_random_uuid(), 'bench_cus_' || n, 'Bench customer ' || n FROM generate_series(1, $1) AS n`,
    [customers],
  );
  await db.query(
    `INSERT INTO webhook_endpoints (id, customer_id, url, event_types)
     SELECT gen_random_uuid(), c.id, 'http://127.0.0.1:9/never/' || c.uid || '/' || k, ARRAY['shop.order.*']
       FROM webhook_customers c CROSS JOIN generate_series(1, 2) AS k
      WHERE c.uid <> $1`,
    [MEASURED_CUSTOMER],
  );
  await db.query(
    `UPDATE webhook_endpoints SET customer_id = (SELECT id FROM webhook_customers WHERE uid = $1) WHERE id = ANY($2)`,
    [MEASURED_CUSTOMER, measured],
  );
  await db.query(`ANALYZE webhook_customers`);
  await db.query(`ANALYZE webhook_endpoints`);
}

/** CPU time (user + system) a process has used so far, in ms (Linux; 0 elsewhere). */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
