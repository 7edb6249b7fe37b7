import { deadLetterIdOf } from './dead-letter-id';

describe('deadLetterIdOf', () => {
  it('names one message in one group with one UUID (version 5), and any other coordinate with another', () => {
    const id = deadLetterIdOf('ledger', 'shop.orders', 2, '41');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deadLetterIdOf('ledger', 'shop.orders', 2, '41')).toBe(id);
    const others = [
      deadLetterIdOf('notifier', 'shop.orders', 2, '41'),
      deadLetterIdOf('ledger', 'shop.orders.v2', 2, '41'),
      deadLetterIdOf('ledger', 'shop.orders', 1, '41'),
      deadLetterIdOf('ledger', 'shop.orders', 2, '42'),
      deadLetterIdOf('ledger', 'shop.orders', 24, '1'),
    ];
    expect(new Set([id, ...others]).size).toBe(6);
  });
});
