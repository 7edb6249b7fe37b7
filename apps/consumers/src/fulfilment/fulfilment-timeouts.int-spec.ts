import { retryFailedSaga } from '@app/saga';
import { freePort, waitFor } from '@app/testing';
import { placedOrder, SagaTestBed } from './testing/saga-test-bed';

describe('order fulfilment saga: deadlines, retries and a human in the loop', () => {
  let bed: SagaTestBed;
  let metricsPort: number;

  beforeAll(async () => {
    bed = await SagaTestBed.start('saga-deadlines');
    metricsPort = await freePort();
    // Two seconds per command, one resend: a step gives up after about four seconds.
    await bed.startConsumers({
      FULFILMENT_STEP_TIMEOUT_MS: '2000',
      FULFILMENT_STEP_RETRIES: '1',
      METRICS_PORT: String(metricsPort),
    });
    await bed.startRelay();
  });

  afterAll(async () => {
    await bed?.stop();
  });

  const chargesOf = (orderId: string) => bed.payments.charges.filter((charge) => charge.reference === orderId);

  it('sends an unanswered charge again with the same key, then compensates it too; the late answer is ignored', async () => {
    await bed.setStock('kettle', 4);
    // The provider takes five seconds for this charge: longer than the step's two deadlines together.
    bed.payments.configure({ nextLatenciesMs: [5_000] });
    await bed.placeOrders([placedOrder('ord-slow-charge', { amount: 999, lines: [{ sku: 'kettle', quantity: 1 }] })]);

    const saga = await bed.sagaIn('ord-slow-charge', 'compensated', 30_000);
    expect(await bed.history(saga.id)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'timed-out charge-card/action → running',
      'timed-out charge-card/action → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → compensated',
    ]);
    expect(await bed.commandsSent('ord-slow-charge')).toEqual([
      'inventory.reserve-stock.v1',
      'payments.charge-card.v1',
      'payments.charge-card.v1',
      'payments.refund-charge.v1',
      'inventory.release-stock.v1',
    ]);
    expect(saga.failure).toMatch(/^charge-card \(action\): no reply within 2000 ms, attempt 2 of 2/);
    // Both sends carried one idempotency key: one charge, refunded once.
    const [charge] = chargesOf('ord-slow-charge');
    expect(chargesOf('ord-slow-charge')).toHaveLength(1);
    expect(bed.payments.stats().keys[charge.idempotencyKey]).toBe(1);
    expect(bed.payments.refunds.filter((refund) => refund.chargeId === charge.id)).toEqual([
      expect.objectContaining({ amount: 999 }),
    ]);
    expect(await bed.stock('kettle')).toBe(4);
  });

  it('fails when a compensation is refused, and completes the compensation after an operator retry', async () => {
    await bed.setStock('clock', 3);
    bed.shipping.configure({ rejectNext: 1, nextLatenciesMs: [1_000] });
    await bed.placeOrders([
      placedOrder('ord-refund-refused', { amount: 2500, lines: [{ sku: 'clock', quantity: 1 }] }),
    ]);
    // While the carrier takes its second, the payment provider is told to refuse the next call: the refund.
    await waitFor(async () => (await bed.saga('ord-refund-refused'))?.step === 'create-shipment', {
      what: 'the saga at create-shipment',
    });
    bed.payments.configure({ failNext: 1, failStatus: 422 });

    const failed = await bed.sagaIn('ord-refund-refused', 'failed');
    expect(failed).toMatchObject({ step: 'charge-card', lastError: expect.stringContaining('422') });
    expect(await bed.stock('clock')).toBe(2);

    expect(await retryFailedSaga(bed.dataSource, failed.id, 'cli:ada')).toEqual({
      outcome: 'scheduled',
      sagaId: failed.id,
      step: 'charge-card',
    });
    expect(await retryFailedSaga(bed.dataSource, failed.id, 'cli:ada')).toEqual({
      outcome: 'not-failed',
      state: 'failed',
      retryPending: true,
    });
    const saga = await bed.sagaIn('ord-refund-refused', 'compensated');
    expect(await bed.history(saga.id)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'succeeded charge-card/action → running',
      'failed create-shipment/action → compensating',
      'failed charge-card/compensation → failed',
      'retry-requested charge-card/operator → failed',
      'retried charge-card/compensation → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → compensated',
    ]);
    expect(await bed.stock('clock')).toBe(3);
    const [charge] = chargesOf('ord-refund-refused');
    expect(bed.payments.refunds.filter((refund) => refund.chargeId === charge.id)).toHaveLength(1);
    expect(await retryFailedSaga(bed.dataSource, saga.id, 'cli:ada')).toEqual({
      outcome: 'not-failed',
      state: 'compensated',
      retryPending: false,
    });
  });

  it('counts sagas per state at scrape time and the transitions into each state', async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain('hookrail_sagas{type="order-fulfilment",state="compensated"} 2');
    expect(metrics).toContain('hookrail_sagas{type="order-fulfilment",state="failed"} 0');
    expect(metrics).toContain('hookrail_saga_transitions_total{type="order-fulfilment",state="failed"} 1');
    expect(metrics).toContain('hookrail_saga_transitions_total{type="order-fulfilment",state="compensated"} 2');
  });
});
