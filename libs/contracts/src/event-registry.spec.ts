import { SHOP_ORDER_PAID_V1, SHOP_ORDER_PLACED_V1, isKnownEventType, projectTopics, validateEventData } from '.';

const order = {
  orderId: 'ord_1',
  customer: { id: 'cus_1', email: 'ada@example.com' },
  amount: 4200,
  currency: 'EUR',
  lineItems: [{ sku: 'book', quantity: 2, unitAmount: 2100 }],
  note: 'gift wrap please',
};

describe('event registry', () => {
  it('accepts a valid shop.order.placed.v1', () => {
    expect(validateEventData(SHOP_ORDER_PLACED_V1, order)).toMatchObject({ ok: true });
  });

  it('lists every field error with its path', () => {
    const result = validateEventData(SHOP_ORDER_PLACED_V1, {
      ...order,
      amount: 42.5,
      currency: 'eur',
      customer: { id: 'c' },
      lineItems: [{ sku: 'x', quantity: 0, unitAmount: 1 }],
    });
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.fieldErrors.map((error) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['amount', 'currency', 'customer.email', 'lineItems.0.quantity']));
  });

  it('requires the paid fields on shop.order.paid.v1', () => {
    const result = validateEventData(SHOP_ORDER_PAID_V1, order);
    expect(result.ok ? [] : result.fieldErrors.map((error) => error.field)).toEqual(['paymentId', 'paidAt']);
  });

  it('rejects data that is not an object', () => {
    expect(validateEventData(SHOP_ORDER_PLACED_V1, [1])).toEqual({
      ok: false,
      fieldErrors: [{ field: 'data', errors: ['data must be a JSON object'] }],
    });
  });

  it('knows its types and topics', () => {
    expect(isKnownEventType('shop.order.cancelled.v1')).toBe(true);
    expect(isKnownEventType('toString')).toBe(false);
    expect(projectTopics(['ledger'])).toEqual([
      'shop.orders',
      'hookrail.inbound',
      'inventory.commands',
      'payments.commands',
      'shipping.commands',
      'fulfilment.replies',
      'ledger.dlt',
      'ledger.replay',
    ]);
  });
});
