import { AppProcess } from '@app/testing';
import { placedOrder, SagaTestBed } from './testing/saga-test-bed';

describe('order fulfilment saga with its coordinator and a participant killed (kill -9) at the worst moments', () => {
  let bed: SagaTestBed;

  beforeAll(async () => {
    bed = await SagaTestBed.start('saga-crash');
    await bed.startRelay();
    // Inventory and shipping in this process; the coordinator and payments in processes of their own, to be killed.
    await bed.startConsumers({ CONSUMER_GROUPS: 'inventory,shipping' });
  });

  afterAll(async () => {
    await bed?.stop();
  });

  /** Starts a process and waits until it consumes. */
  async function start(groups: string, env: Record<string, string> = {}): Promise<AppProcess> {
    const child = bed.startConsumersProcess({ CONSUMER_GROUPS: groups, ...env });
    await child.waitForLog('consumers started');
    return child;
  }

  // Five app processes start one after another here; a busy machine takes seconds for each.
  it('ends every saga right, with exactly one charge per order and one refund where due', async () => {
    await bed.setStock('globe', 10);
    bed.shipping.configure({ rejectRecipients: ['cus_ord-crash-3'] });
    const orders = ['ord-crash-1', 'ord-crash-2', 'ord-crash-3'];
    const amounts = [1000, 2000, 3000];

    // The coordinator dies right after committing its first transitions (the sagas' starts), before the offset
    // commit; payments dies right after its first charge returned, before `charged` is recorded.
    const coordinator = await start('fulfilment', { HOOKRAIL_FAULT_KILL_AFTER_SAGA_TRANSITIONS: '1' });
    const payments = await start('payments', { HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS: '1' });
    await bed.placeOrders(
      orders.map((id, i) => placedOrder(id, { amount: amounts[i], lines: [{ sku: 'globe', quantity: 1 }] })),
    );
    expect(await coordinator.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Again, a few transitions later, in the middle of the replies.
    const coordinator2 = await start('fulfilment', { HOOKRAIL_FAULT_KILL_AFTER_SAGA_TRANSITIONS: '3' });
    expect(await payments.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // Payments applies commands by key, so up to all three charges were in flight when it died.
    const interrupted = [...bed.payments.charges];
    expect(interrupted.length).toBeGreaterThanOrEqual(1);
    const payments2 = await start('payments');
    expect(await coordinator2.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const coordinator3 = await start('fulfilment');

    const [first, second, third] = [
      await bed.sagaIn('ord-crash-1', 'completed', 60_000),
      await bed.sagaIn('ord-crash-2', 'completed', 60_000),
      await bed.sagaIn('ord-crash-3', 'compensated', 60_000),
    ];
    for (const saga of [first, second])
      expect(await bed.history(saga.id)).toEqual([
        'started reserve-stock/action → running',
        'succeeded reserve-stock/action → running',
        'succeeded charge-card/action → running',
        'succeeded create-shipment/action → completed',
      ]);
    expect(await bed.history(third.id)).toEqual([
      'started reserve-stock/action → running',
      'succeeded reserve-stock/action → running',
      'succeeded charge-card/action → running',
      'failed create-shipment/action → compensating',
      'succeeded charge-card/compensation → compensating',
      'succeeded reserve-stock/compensation → compensated',
    ]);
    for (const [i, order] of orders.entries()) {
      const charges = bed.payments.charges.filter((charge) => charge.reference === order);
      expect(charges).toEqual([expect.objectContaining({ amount: amounts[i] })]);
      expect(await bed.commandsSent(order)).toHaveLength(i === 2 ? 5 : 3);
    }
    // Each charge in flight when payments died was asked for again with its key and answered from the first one.
    for (const charge of interrupted) expect(bed.payments.stats().keys[charge.idempotencyKey]).toBe(2);
    expect(bed.payments.refunds).toEqual([expect.objectContaining({ amount: 3000 })]);
    expect(await bed.stock('globe')).toBe(8);

    payments2.signal('SIGTERM');
    coordinator3.signal('SIGTERM');
    expect(await payments2.exited).toEqual({ code: 0, signal: null });
    expect(await coordinator3.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});
