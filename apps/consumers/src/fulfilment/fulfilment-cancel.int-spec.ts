import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_FULFILMENT_CANCELLED_V1 } from '@app/contracts';
import { cancelRunningSaga, SagaViews } from '@app/saga';
import { waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { placedOrder, SagaTestBed } from './testing/saga-test-bed';

describe('order fulfilment saga: cancelled by the shop or an operator while it runs', () => {
  let bed: SagaTestBed;

  beforeAll(async () => {
    bed = await SagaTestBed.start('saga-cancel');
    await bed.startConsumers();
    await bed.startRelay();
  });

  afterAll(async () => {
    await bed?.stop();
  });

  const chargesOf = (orderId: string) => bed.payments.charges.filter((charge) => charge.reference === orderId);
  const refundsOf = (orderId: string) => {
    const ids = new Set(chargesOf(orderId).map((charge) => charge.id));
    return bed.payments.refunds.filter((refund) => ids.has(refund.chargeId));
  };
  const shipmentsOf = (orderId: string) => bed.shipping.shipments.filter((shipment) => shipment.reference === orderId);

  /** `shop.order.cancelled.v1` for the order, as the shop sends it (a new event id each time). */
  const cancelled = (orderId: string) => {
    const placed = placedOrder(orderId);
    return {
      ...placed,
      id: randomUUID(),
      type: SHOP_ORDER_CANCELLED_V1,
      data: { ...(placed.data as Record<string, unknown>), reason: 'changed mind' },
    };
  };

  /** Places an order whose shipment the carrier takes `shipmentMs` to create, and waits until the saga is there. */
  async function atCreateShipment(orderId: string, sku: string, shipmentMs: number): Promise<string> {
    await bed.setStock(sku, 5);
    bed.shipping.configure({ nextLatenciesMs: [shipmentMs] });
    await bed.placeOrders([placedOrder(orderId, { amount: 3100, lines: [{ sku, quantity: 2 }] })]);
    await waitFor(async () => (await bed.saga(orderId))?.step === 'create-shipment', {
      what: `the saga of ${orderId} at create-shipment`,
    });
    return (await bed.saga(orderId))!.id;
  }

  it("undoes what was done once and ends cancelled when the shop's cancellation arrives mid-saga", async () => {
    await atCreateShipment('ord-cancelled', 'globe', 1_500);
    // The shop cancels while the carrier is creating the shipment, and sends its cancellation twice.
    await bed.placeOrders([cancelled('ord-cancelled'), cancelled('ord-cancelled')]);

    const saga = await bed.sagaIn('ord-cancelled', 'cancelled');
    expect(await bed.history(saga.id)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'succeeded charge-card/action → running',
      'cancelled create-shipment/action → compensating',
      'succeeded create-shipment/compensation → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → cancelled',
    ]);
    expect(await bed.commandsSent('ord-cancelled')).toEqual([
      'inventory.reserve-stock.v1',
      'payments.charge-card.v1',
      'shipping.create-shipment.v1',
      'shipping.cancel-shipment.v1',
      'payments.refund-charge.v1',
      'inventory.release-stock.v1',
    ]);
    // The shipment the carrier created meanwhile is cancelled, the charge refunded, the stock back: each once.
    expect(shipmentsOf('ord-cancelled')).toEqual([expect.objectContaining({ cancelled: true })]);
    expect(chargesOf('ord-cancelled')).toHaveLength(1);
    expect(refundsOf('ord-cancelled')).toEqual([expect.objectContaining({ amount: 3100 })]);
    expect(await bed.stock('globe')).toBe(5);
    const [reservation] = await bed.dataSource.query(`SELECT status FROM stock_reservations WHERE saga_id = $1`, [
      saga.id,
    ]);
    expect(reservation.status).toBe('released');
    const outcomes = (await bed.outcomes('ord-cancelled')).filter(({ type }) => type !== SHOP_ORDER_CANCELLED_V1);
    expect(outcomes).toEqual([
      {
        type: SHOP_ORDER_FULFILMENT_CANCELLED_V1,
        data: expect.objectContaining({
          sagaId: saga.id,
          orderId: 'ord-cancelled',
          reason: 'the shop cancelled the order: changed mind',
        }),
      },
    ]);
    // Both cancellations were consumed; the second found the saga no longer running.
    const [{ consumed }] = await bed.dataSource.query(
      `SELECT count(*)::int AS consumed FROM processed_events p JOIN outbox o ON o.event_id::text = p.event_id
        WHERE p."group" = 'fulfilment' AND o.key = 'ord-cancelled' AND o.headers->>'ce_type' = $1`,
      [SHOP_ORDER_CANCELLED_V1],
    );
    expect(consumed).toBe(2);
  });

  it('leaves a completed saga as it is when the cancellation comes after it ended', async () => {
    await bed.setStock('atlas', 5);
    await bed.placeOrders([placedOrder('ord-too-late', { lines: [{ sku: 'atlas', quantity: 1 }] })]);
    const saga = await bed.sagaIn('ord-too-late', 'completed');
    const history = await bed.history(saga.id);
    await bed.placeOrders([cancelled('ord-too-late')]);
    await waitFor(
      async () =>
        (
          await bed.dataSource.query(
            `SELECT 1 FROM processed_events p JOIN outbox o ON o.event_id::text = p.event_id
              WHERE p."group" = 'fulfilment' AND o.key = 'ord-too-late' AND o.headers->>'ce_type' = $1`,
            [SHOP_ORDER_CANCELLED_V1],
          )
        ).length === 1,
      { what: 'the late cancellation consumed' },
    );
    expect(await bed.saga('ord-too-late')).toMatchObject({ state: 'completed' });
    expect(await bed.history(saga.id)).toEqual(history);
    expect(refundsOf('ord-too-late')).toEqual([]);
  });

  it('cancels a saga an operator cancels, at its next move, and audits who did', async () => {
    const sagaId = await atCreateShipment('ord-operator', 'lamp-shade', 1_000);

    expect(await cancelRunningSaga(bed.dataSource, sagaId, 'cli:grace', 'customer called')).toEqual({
      outcome: 'scheduled',
      sagaId,
      step: 'create-shipment',
    });
    const saga = await bed.sagaIn('ord-operator', 'cancelled');
    const history = await SagaViews.history(bed.dataSource, saga.id);
    expect(history.map((entry) => `${entry.event} ${entry.step}/${entry.phase} → ${entry.state}`)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'succeeded charge-card/action → running',
      'cancel-requested create-shipment/operator → running',
      'cancelled create-shipment/action → compensating',
      'succeeded create-shipment/compensation → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → cancelled',
    ]);
    expect(history[3].detail).toBe('cancelled by cli:grace: customer called');
    expect(await cancelRunningSaga(bed.dataSource, sagaId, 'cli:grace')).toEqual({
      outcome: 'not-running',
      state: 'cancelled',
      cancelPending: false,
    });
    expect(shipmentsOf('ord-operator').every((shipment) => shipment.cancelled)).toBe(true);
    expect(refundsOf('ord-operator')).toHaveLength(1);
    expect(await bed.stock('lamp-shade')).toBe(5);
    expect(await bed.outcomes('ord-operator')).toMatchObject([
      {
        type: SHOP_ORDER_FULFILMENT_CANCELLED_V1,
        data: { reason: 'cancelled by cli:grace: customer called' },
      },
    ]);
    const audit = await bed.dataSource.query(
      `SELECT actor, action, details FROM operator_audit WHERE subject_type = 'saga' AND subject_id = $1`,
      [sagaId],
    );
    expect(audit).toEqual([
      {
        actor: 'cli:grace',
        action: 'saga-cancel',
        details: { step: 'create-shipment', reason: 'customer called' },
      },
    ]);
  });
});
