import { waitFor } from '@app/testing';
import { placedOrder, SagaTestBed } from './testing/saga-test-bed';

const SAGAS = 1_000;
const SKUS = ['red', 'green', 'blue', 'black'];
const STOCK = 100_000;

describe('1,000 concurrent fulfilment sagas with one shipment in ten refused', () => {
  let bed: SagaTestBed;

  beforeAll(async () => {
    bed = await SagaTestBed.start('saga-load');
    await bed.startConsumers({
      TOPIC_PARTITIONS: '6',
      CONSUMER_PARTITION_CONCURRENCY: '6',
      CONSUMER_BATCH_SIZE: '200',
    });
    await bed.startRelay();
  });

  afterAll(async () => {
    await bed?.stop();
  });

  it('ends every saga completed or compensated, with stock and money balanced exactly', async () => {
    for (const sku of SKUS) await bed.setStock(sku, STOCK);
    bed.shipping.configure({ rejectRate: 0.1 });
    const orders = Array.from({ length: SAGAS }, (_, i) =>
      placedOrder(`ord-load-${i}`, {
        amount: 100 + ((i * 37) % 900),
        lines: [
          { sku: SKUS[i % SKUS.length], quantity: 1 + (i % 3) },
          ...(i % 5 === 0 ? [{ sku: SKUS[(i + 1) % SKUS.length], quantity: 1 }] : []),
        ],
      }),
    );
    await bed.placeOrders(orders, 250);

    const ended = () =>
      bed.dataSource
        .query(`SELECT state, count(*)::int AS n FROM sagas GROUP BY state`)
        .then((rows: Array<{ state: string; n: number }>) => Object.fromEntries(rows.map((row) => [row.state, row.n])));
    const states = await waitFor(
      async () => {
        const counts = await ended();
        return (counts.completed ?? 0) + (counts.compensated ?? 0) === SAGAS ? counts : undefined;
      },
      { what: `${SAGAS} sagas ended`, timeoutMs: 75_000, intervalMs: 250 },
    );
    expect(Object.keys(states).sort()).toEqual(['compensated', 'completed']);
    // One shipment in ten was refused: about a hundred compensated sagas (binomial, far from 0 and from 250).
    expect(states.compensated).toBeGreaterThan(40);
    expect(states.compensated).toBeLessThan(250);

    const completed = new Set<string>(
      (await bed.dataSource.query(`SELECT correlation_id FROM sagas WHERE state = 'completed'`)).map(
        (row: { correlation_id: string }) => row.correlation_id,
      ),
    );
    // Money: one charge per order; every compensated order refunded once; charges − refunds = completed amounts.
    const chargesPerOrder = new Map<string, number>();
    for (const charge of bed.payments.charges)
      chargesPerOrder.set(charge.reference, (chargesPerOrder.get(charge.reference) ?? 0) + 1);
    expect([...chargesPerOrder.values()].every((count) => count === 1)).toBe(true);
    expect(chargesPerOrder.size).toBe(SAGAS);
    const refunded = new Set(bed.payments.refunds.map((refund) => refund.chargeId));
    expect(refunded.size).toBe(bed.payments.refunds.length);
    for (const charge of bed.payments.charges) expect(refunded.has(charge.id)).toBe(!completed.has(charge.reference));
    const completedAmount = orders
      .filter((order) => completed.has(order.subject!))
      .reduce((sum, order) => sum + (order.data as { amount: number }).amount, 0);
    const { chargedAmount, refundedAmount } = bed.payments.stats();
    expect(chargedAmount - refundedAmount).toBe(completedAmount);

    // Stock: what the completed orders took, nothing more.
    for (const sku of SKUS) {
      const taken = orders
        .filter((order) => completed.has(order.subject!))
        .flatMap((order) => (order.data as { lineItems: Array<{ sku: string; quantity: number }> }).lineItems)
        .filter((line) => line.sku === sku)
        .reduce((sum, line) => sum + line.quantity, 0);
      expect(await bed.stock(sku)).toBe(STOCK - taken);
    }
    // One shipment per completed order, none for a compensated one.
    expect(bed.shipping.shipments.map((shipment) => shipment.reference).sort()).toEqual([...completed].sort());
  }, 120_000);
});
