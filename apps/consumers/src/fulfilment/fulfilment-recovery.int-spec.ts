import { retryFailedSaga, SagaViews } from '@app/saga';
import { waitFor } from '@app/testing';
import { placedOrder, SagaTestBed } from './testing/saga-test-bed';

/**
 * A saga whose compensation went unanswered past its ceiling is `failed`; the participant, meanwhile, keeps retrying
 * the refund its provider could not take. When that retry gets through, its reply moves the saga on by itself: it
 * ends `compensated` with no operator, says so in its history and in operator_audit, and a retry is refused.
 */
describe('order fulfilment saga: a failed saga that recovers on its own', () => {
  let bed: SagaTestBed;

  beforeAll(async () => {
    bed = await SagaTestBed.start('saga-recovery');
    // A refund unanswered for three seconds fails the saga; the payments group probes its provider every second.
    await bed.startConsumers({
      FULFILMENT_CHARGE_CARD_TIMEOUT_MS: '1000',
      FULFILMENT_COMPENSATION_CEILING_MS: '3000',
      CONSUMER_BREAKER_PROBE_MS: '500',
      CONSUMER_BREAKER_PROBE_MAX_MS: '1000',
    });
    await bed.startRelay();
  });

  afterAll(async () => {
    bed?.payments.configure({ failureRate: 0 });
    await bed?.stop();
  });

  it("ends compensated when the participant's own retried refund succeeds after the saga failed, audited", async () => {
    await bed.setStock('lamp', 3);
    bed.shipping.configure({ rejectNext: 1, nextLatenciesMs: [1_000] });
    await bed.placeOrders([placedOrder('ord-late-refund', { amount: 1800, lines: [{ sku: 'lamp', quantity: 1 }] })]);
    // While the carrier takes its second, the payment provider goes down: the refund that follows cannot be made.
    await waitFor(async () => (await bed.saga('ord-late-refund'))?.step === 'create-shipment', {
      what: 'the saga at create-shipment',
    });
    bed.payments.configure({ failureRate: 1, failStatus: 503 });

    const failed = await bed.sagaIn('ord-late-refund', 'failed');
    expect(failed).toMatchObject({ step: 'charge-card', lastError: expect.stringContaining('an operator must look') });
    expect(await bed.stock('lamp')).toBe(2);
    bed.payments.configure({ failureRate: 0 });

    const saga = await bed.sagaIn('ord-late-refund', 'compensated');
    const history = await SagaViews.history(bed.dataSource, saga.id);
    const afterFailure = history.slice(history.findIndex((entry) => entry.state === 'failed') + 1);
    expect(afterFailure.map((entry) => `${entry.event} ${entry.step}/${entry.phase} → ${entry.state}`)).toEqual([
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → compensated',
    ]);
    expect(afterFailure[0].detail).toBe(
      'succeeded after the saga had failed: it goes on by itself, no operator retry needed',
    );
    expect(history.some((entry) => entry.phase === 'operator')).toBe(false);
    const audit = await bed.dataSource.query(
      `SELECT actor, action, details FROM operator_audit WHERE subject_type = 'saga' AND subject_id = $1`,
      [saga.id],
    );
    expect(audit).toEqual([
      {
        actor: 'hookrail',
        action: 'saga-recovered',
        details: {
          step: 'charge-card',
          reply: 'payments.charge-refunded.v1',
          replyId: expect.any(String),
          state: 'compensating',
        },
      },
    ]);
    expect(await retryFailedSaga(bed.dataSource, saga.id, 'cli:ada')).toEqual({
      outcome: 'not-failed',
      state: 'compensated',
      retryPending: false,
    });
    // One charge, refunded once; the stock back.
    const charges = bed.payments.charges.filter((charge) => charge.reference === 'ord-late-refund');
    expect(charges).toHaveLength(1);
    expect(bed.payments.refunds.filter((refund) => refund.chargeId === charges[0].id)).toHaveLength(1);
    expect(await bed.stock('lamp')).toBe(3);
  });
});
