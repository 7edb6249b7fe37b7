import { CloudEvent, OrderFieldsV1, SHOP_ORDER_CANCELLED_V1 } from '@app/contracts';
import { orderEvent } from '@app/testing';
import { composeOrderEmail, formatAmount } from './order-email';

describe('order email', () => {
  it('addresses the customer with a subject per event type and the order in the text', () => {
    const placed = orderEvent('ord-7', {
      data: { customer: { id: 'c', email: 'ada@example.com', name: 'Ada' } },
    }) as CloudEvent<OrderFieldsV1>;
    expect(composeOrderEmail(placed, 'shop@example.com')).toEqual({
      from: 'shop@example.com',
      to: 'ada@example.com',
      subject: 'We received your order ord-7',
      text: 'Hello Ada,\n\nWe received your order ord-7.\n\n  2 × book\n\nTotal: 42.00 EUR\n',
    });
    const cancelled = orderEvent('ord-7', { type: SHOP_ORDER_CANCELLED_V1 }) as CloudEvent<OrderFieldsV1>;
    expect(composeOrderEmail(cancelled, 'shop@example.com').subject).toBe('Your order ord-7 was cancelled');
  });

  it('formats minor units with two decimals', () => {
    expect(formatAmount(5, 'USD')).toBe('0.05 USD');
    expect(formatAmount(123_456, 'EUR')).toBe('1234.56 EUR');
  });
});
