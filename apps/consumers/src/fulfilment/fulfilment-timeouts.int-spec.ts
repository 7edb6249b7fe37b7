import { retryFailedSaga, SagaViews } from '@app/saga';
import { freePort, waitFor } from '@app/testing';
import { placedOrder, SagaTestBed } from './testing/saga-test-bed';

describe('order fulfilment saga: deadlines, retries on a policy and a human in the loop', () => {
  let bed: SagaTestBed;
  let metricsPort: number;

  beforeAll(async () => {
    bed = await SagaTestBed.start('saga-deadlines');
    metricsPort = await freePort();
    // Two seconds per command, one resend: a step gives up after about four seconds. A refused compensation is sent
    // again after at most 200 ms, then 400 ms; the third refusal fails the saga.
    await bed.startConsumers({
      FULFILMENT_RESERVE_STOCK_TIMEOUT_MS: '2000',
      FULFILMENT_CHARGE_CARD_TIMEOUT_MS: '2000',
      FULFILMENT_CREATE_SHIPMENT_TIMEOUT_MS: '2000',
      FULFILMENT_STEP_RETRIES: '1',
      FULFILMENT_COMPENSATION_ATTEMPTS: '3',
      FULFILMENT_COMPENSATION_BACKOFF_MS: '200',
      FULFILMENT_COMPENSATION_MAX_BACKOFF_MS: '1000',
      FULFILMENT_COMPENSATION_CEILING_MS: '30000',
      CONSUMER_BREAKER_PROBE_MS: '1000',
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

  /** Runs an order until the saga is at create-shipment, then has the payment provider refuse the next refunds. */
  async function refundsRefused(orderId: string, sku: string, refusals: number): Promise<void> {
    await bed.setStock(sku, 3);
    bed.shipping.configure({ rejectNext: 1, nextLatenciesMs: [1_000] });
    await bed.placeOrders([placedOrder(orderId, { amount: 2500, lines: [{ sku, quantity: 1 }] })]);
    // While the carrier takes its second, the payment provider is told to refuse the next calls: the refunds.
    await waitFor(async () => (await bed.saga(orderId))?.step === 'create-shipment', {
      what: `the saga of ${orderId} at create-shipment`,
    });
    bed.payments.configure({ failNext: refusals, failStatus: 422 });
  }

  const refundsOf = (orderId: string) => {
    const ids = new Set(chargesOf(orderId).map((charge) => charge.id));
    return bed.payments.refunds.filter((refund) => ids.has(refund.chargeId));
  };

  it('sends a refund refused twice again after a backoff and ends compensated, with no operator', async () => {
    await refundsRefused('ord-refund-twice', 'vase', 2);

    const saga = await bed.sagaIn('ord-refund-twice', 'compensated');
    expect(await bed.history(saga.id)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'succeeded charge-card/action → running',
      'failed create-shipment/action → compensating',
      'failed charge-card/compensation → compensating',
      'retried charge-card/compensation → compensating',
      'failed charge-card/compensation → compensating',
      'retried charge-card/compensation → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → compensated',
    ]);
    const history = await SagaViews.history(bed.dataSource, saga.id);
    expect(history.map((entry) => entry.detail)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/422.*\(refusal 1 of 3; sent again in \d+ ms\)$/),
        expect.stringMatching(/422.*\(refusal 2 of 3; sent again in \d+ ms\)$/),
        'sent again after 2 refusals',
      ]),
    );
    expect(history.some((entry) => entry.phase === 'operator')).toBe(false);
    expect(refundsOf('ord-refund-twice')).toEqual([expect.objectContaining({ amount: 2500 })]);
    expect(await bed.stock('vase')).toBe(3);
  });

  it('fails when the refund is refused past its policy, and completes the compensation after an operator retry', async () => {
    await refundsRefused('ord-refund-refused', 'clock', 3);

    const failed = await bed.sagaIn('ord-refund-refused', 'failed');
    expect(failed).toMatchObject({
      step: 'charge-card',
      lastError: expect.stringMatching(/422.*\(refused 3 times; an operator must look\)$/),
    });
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
      'failed charge-card/compensation → compensating',
      'retried charge-card/compensation → compensating',
      'failed charge-card/compensation → compensating',
      'retried charge-card/compensation → compensating',
      'failed charge-card/compensation → failed',
      'retry-requested charge-card/operator → failed',
      'retried charge-card/compensation → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → compensated',
    ]);
    expect(await bed.stock('clock')).toBe(3);
    expect(refundsOf('ord-refund-refused')).toHaveLength(1);
    expect(await retryFailedSaga(bed.dataSource, saga.id, 'cli:ada')).toEqual({
      outcome: 'not-failed',
      state: 'compensated',
      retryPending: false,
    });
    const [audit] = await bed.dataSource.query(
      `SELECT actor, action, details FROM operator_audit WHERE subject_type = 'saga' AND subject_id = $1`,
      [saga.id],
    );
    expect(audit).toEqual({ actor: 'cli:ada', action: 'saga-retry', details: { step: 'charge-card' } });
  });

  it('drops a charge that keeps failing once its deadline passed, so the refund behind it on the key goes through', async () => {
    await bed.setStock('teapot', 2);
    // Every charge fails (503) until told otherwise; refunds work. The runtime retries the charge; without its
    // deadline the refund would wait behind it on the order's key for the runtime's whole ceiling.
    bed.payments.configure({ failNextCharges: 1_000, failStatus: 503 });
    try {
      await bed.placeOrders([
        placedOrder('ord-stuck-charge', { amount: 700, lines: [{ sku: 'teapot', quantity: 1 }] }),
      ]);
      const saga = await bed.sagaIn('ord-stuck-charge', 'compensated', 40_000);
      // The refund may time out once while the charge before it waits for its next attempt: sent again, same key.
      const resent = 'timed-out charge-card/compensation → compensating';
      expect((await bed.history(saga.id)).filter((entry) => entry !== resent)).toEqual([
        'started reserve-stock/action → running',
        'succeeded reserve-stock/action → running',
        'timed-out charge-card/action → running',
        'timed-out charge-card/action → compensating',
        'succeeded charge-card/compensation → compensating',
        'succeeded reserve-stock/compensation → compensated',
      ]);
    } finally {
      bed.payments.configure({ failNextCharges: 0 });
    }
    expect(chargesOf('ord-stuck-charge')).toEqual([]);
    expect(await bed.stock('teapot')).toBe(2);
    const [payment] = await bed.dataSource.query(
      `SELECT status, refunded_amount::int AS refunded_amount, refund_id, reason
         FROM payments WHERE order_id = 'ord-stuck-charge'`,
    );
    // Never charged, so not refunded: voided, with what the provider said.
    expect(payment).toEqual({
      status: 'voided',
      refunded_amount: 0,
      refund_id: null,
      reason: 'no charge was made with this key (provider: nothing_to_refund)',
    });
  });

  it('counts sagas per state at scrape time and the transitions into each state', async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain('hookrail_sagas{type="order-fulfilment",state="compensated"} 4');
    expect(metrics).toContain('hookrail_sagas{type="order-fulfilment",state="cancelled"} 0');
    expect(metrics).toContain('hookrail_sagas{type="order-fulfilment",state="failed"} 0');
    expect(metrics).toContain('hookrail_saga_transitions_total{type="order-fulfilment",state="failed"} 1');
    expect(metrics).toContain('hookrail_saga_transitions_total{type="order-fulfilment",state="compensated"} 4');
  });
});
