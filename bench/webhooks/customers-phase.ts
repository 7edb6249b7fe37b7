import { Client } from 'pg';

/** The customer whose events the customers phase sends; the others' endpoints never get an event. */
export const MEASURED_CUSTOMER = 'bench_cus_1';

/** The measured customer, given `endpoints` (made through the API, so that they have secrets). */
export async function seedMeasuredCustomer(db: Client, endpoints: string[]): Promise<void> {
  await db.query(`INSERT INTO webhook_customers (id, uid, name) VALUES (gen_random_uuid(), $1, 'Bench customer 1')`, [
    MEASURED_CUSTOMER,
  ]);
  await db.query(
    `UPDATE webhook_endpoints SET customer_id = (SELECT id FROM webhook_customers WHERE uid = $1) WHERE id = ANY($2)`,
    [MEASURED_CUSTOMER, endpoints],
  );
  await analyze(db);
}

/**
 * Customers 2 to `customers`, two endpoints each, in two statements; their endpoints point at a port nothing listens
 * on and never get an event.
 */
export async function seedOtherCustomers(db: Client, customers: number): Promise<void> {
  await db.query(
    `INSERT INTO webhook_customers (id, uid, name)
     SELECT gen_random_uuid(), 'bench_cus_' || n, 'Bench customer ' || n FROM generate_series(2, $1) AS n`,
    [customers],
  );
  await db.query(
    `INSERT INTO webhook_endpoints (id, customer_id, url, event_types)
     SELECT gen_random_uuid(), c.id, 'http://127.0.0.1:9/never/' || c.uid || '/' || k, ARRAY['shop.order.*']
       FROM webhook_customers c CROSS JOIN generate_series(1, 2) AS k
      WHERE c.uid <> $1`,
    [MEASURED_CUSTOMER],
  );
  await analyze(db);
}

/** Customers 2 and on, with their endpoints: the measured customer is the only one again. */
export async function removeOtherCustomers(db: Client): Promise<void> {
  await db.query(
    `DELETE FROM webhook_endpoints
      WHERE customer_id IN (SELECT id FROM webhook_customers WHERE uid LIKE 'bench\\_cus\\_%' AND uid <> $1)`,
    [MEASURED_CUSTOMER],
  );
  await db.query(`DELETE FROM webhook_customers WHERE uid LIKE 'bench\\_cus\\_%' AND uid <> $1`, [MEASURED_CUSTOMER]);
  await analyze(db);
}

async function analyze(db: Client): Promise<void> {
  await db.query(`ANALYZE webhook_customers`);
  await db.query(`ANALYZE webhook_endpoints`);
}
