import { connect } from '@app/db';
import { createTestDatabase, preparedPlan, tableReads, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PayloadFilter } from '../payload-filters';
import { fanOutStatement, FanOutRow, insertDeliveries } from './fan-out.repository';

const CUSTOMERS = 10_000;

function event(customerId: string | null, data: unknown = {}, type = 'shop.order.placed.v1'): FanOutRow {
  const id = randomUUID();
  return {
    eventId: id,
    producerEventId: null,
    eventType: type,
    eventSource: '/tests',
    eventTime: new Date().toISOString(),
    subject: null,
    orderingKey: id,
    payload: JSON.stringify(data),
    sourceTopic: 'shop.orders',
    sourcePartition: 0,
    sourceOffset: '0',
    traceparent: null,
    customerId,
  };
}

describe('the fan-out by customer and payload (real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  const addCustomer = async (uid: string): Promise<string> => {
    const id = randomUUID();
    await dataSource.query(`INSERT INTO webhook_customers (id, uid, name) VALUES ($1, $2, $2)`, [id, uid]);
    return id;
  };
  const addEndpoint = async (
    customerId: string | null,
    options: { eventTypes?: string[]; payloadFilters?: PayloadFilter[] } = {},
  ): Promise<string> => {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO webhook_endpoints (id, customer_id, url, event_types, payload_filters) VALUES ($1, $2, $3, $4, $5)`,
      [
        id,
        customerId,
        `https://hooks.test/${id}`,
        options.eventTypes ?? ['shop.order.*'],
        options.payloadFilters ? JSON.stringify(options.payloadFilters) : null,
      ],
    );
    return id;
  };
  const fanOut = (rows: FanOutRow[]) => dataSource.transaction((manager) => insertDeliveries(manager, rows, 0));
  const eventsAt = async (endpointId: string): Promise<string[]> =>
    (
      await dataSource.query(`SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY event_id`, [
        endpointId,
      ])
    ).map((row: { event_id: string }) => row.event_id);
  const ids = (rows: FanOutRow[]) => rows.map((row) => row.eventId).sort();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'fan-out-test', poolSize: 2 });
  });

  afterEach(async () => {
    await dataSource.query(`TRUNCATE webhook_deliveries, webhook_endpoints, webhook_customers CASCADE`);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it("gives each customer's endpoint its own events only, and the operator's every event", async () => {
    const [acme, globex] = [await addCustomer('acme'), await addCustomer('globex')];
    const [acmeEndpoint, globexEndpoint, operatorEndpoint] = [
      await addEndpoint(acme),
      await addEndpoint(globex),
      await addEndpoint(null),
    ];
    // An endpoint of acme's for another type gets nothing.
    const acmePaidOnly = await addEndpoint(acme, { eventTypes: ['shop.order.paid.v1'] });
    const acmeEvents = [event('acme'), event('acme'), event('acme')];
    const globexEvents = [event('globex'), event('globex'), event('globex')];
    const nobody = [event(null)];
    const unknown = [event('initech')];
    // One batch, the customers' events interleaved, as a partition hands them over.
    const batch = [acmeEvents[0], globexEvents[0], nobody[0], acmeEvents[1], globexEvents[1], acmeEvents[2]];
    // Acme's and globex's to their endpoint and the operator's, the customer-less one to the operator's only.
    expect(await fanOut(batch)).toBe(11);
    expect(await fanOut([globexEvents[2], ...unknown])).toBe(3);
    // A redelivered batch writes nothing twice.
    expect(await fanOut(batch)).toBe(0);

    expect(await eventsAt(acmeEndpoint)).toEqual(ids(acmeEvents));
    expect(await eventsAt(globexEndpoint)).toEqual(ids(globexEvents));
    expect(await eventsAt(acmePaidOnly)).toEqual([]);
    expect(await eventsAt(operatorEndpoint)).toEqual(ids([...acmeEvents, ...globexEvents, ...nobody, ...unknown]));
  });

  it('delivers only what the payload filters hold for: a string, a number, null, all of them at once', async () => {
    const customer = await addCustomer('acme');
    const eu = await addEndpoint(customer, { payloadFilters: [{ path: '/shop/region', equals: 'eu' }] });
    const amount = await addEndpoint(null, { payloadFilters: [{ path: '/amount', equals: 4200 }] });
    const noCoupon = await addEndpoint(null, { payloadFilters: [{ path: '/coupon', equals: null }] });
    const euGift = await addEndpoint(null, {
      payloadFilters: [
        { path: '/shop/region', equals: 'eu' },
        { path: '/gift', equals: true },
      ],
    });
    const euEvent = event('acme', { shop: { region: 'eu' }, amount: 4200.0, coupon: null, gift: true });
    const usEvent = event('acme', { shop: { region: 'us' }, amount: 100, coupon: 'SPRING' });
    const bare = event('acme', { amount: 4200 });
    await fanOut([euEvent, usEvent, bare]);

    expect(await eventsAt(eu)).toEqual([euEvent.eventId]);
    expect(await eventsAt(amount)).toEqual(ids([euEvent, bare]));
    // Null holds for a null value, not for an absent one.
    expect(await eventsAt(noCoupon)).toEqual([euEvent.eventId]);
    expect(await eventsAt(euGift)).toEqual([euEvent.eventId]);
  });

  it(`reads only the operator's endpoints and the one customer's among ${CUSTOMERS} customers' endpoints`, async () => {
    await dataSource.query(
      `INSERT INTO webhook_customers (id, uid, name)
       SELECT gen_random_uuid(), 'cus_' || n, 'Customer ' || n FROM generate_series(1, $1) AS n`,
      [CUSTOMERS],
    );
    await dataSource.query(
      `INSERT INTO webhook_endpoints (id, customer_id, url, event_types)
       SELECT gen_random_uuid(), c.id, 'https://hooks.test/' || c.uid || '/' || k, ARRAY['shop.order.*']
         FROM webhook_customers c CROSS JOIN generate_series(1, 2) AS k`,
    );
    const operator = [await addEndpoint(null), await addEndpoint(null, { eventTypes: ['*'] })];
    await dataSource.query(`ANALYZE webhook_customers`);
    await dataSource.query(`ANALYZE webhook_endpoints`);
    const [measured] = await dataSource.query(`SELECT id FROM webhook_customers WHERE uid = 'cus_4242'`);
    const own: string[] = (
      await dataSource.query(`SELECT id FROM webhook_endpoints WHERE customer_id = $1`, [measured.id])
    ).map((row: { id: string }) => row.id);
    const rows = [event('cus_4242')];

    // As the consumers run it: a custom plan for the first executions, then the generic one.
    for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
      const types =
        'varchar[], varchar[], varchar[], timestamptz[], varchar[], varchar[], text[], varchar[], int[], varchar[], varchar[], varchar[], int';
      const plan = await preparedPlan(dataSource, { ...fanOutStatement(rows, 0), types }, mode);
      const reads = tableReads(plan, 'webhook_endpoints');
      expect(reads.filter((read) => read.node === 'Seq Scan')).toEqual([]);
      // Joining every endpoint read all 20,002 of them.
      expect(reads.reduce((sum, read) => sum + read.rows, 0)).toBeLessThanOrEqual(operator.length + own.length);
    }

    expect(await fanOut(rows)).toBe(4);
    const [{ endpoints }] = await dataSource.query(
      `SELECT array_agg(endpoint_id::text ORDER BY endpoint_id) AS endpoints FROM webhook_deliveries WHERE event_id = $1`,
      [rows[0].eventId],
    );
    expect(endpoints).toEqual([...operator, ...own].sort());
  });
});
