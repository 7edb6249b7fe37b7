import { isEventTypeFilter, matchesEventType } from './event-type-filter';

describe('event-type filters', () => {
  it.each(['*', 'shop.order.*', 'shop.order.placed.v1', 'github.push', 'stripe.*', 'a_b-c.d'])('accepts %s', (filter) =>
    expect(isEventTypeFilter(filter)).toBe(true),
  );

  it.each(['', 'shop.*.placed', 'shop.order*', '*.placed', 'shop..order', '.shop', 'shop order', 'shop.order.**'])(
    'refuses %j',
    (filter) => expect(isEventTypeFilter(filter)).toBe(false),
  );

  it('matches exact types and prefixes', () => {
    expect(matchesEventType(['shop.order.*'], 'shop.order.placed.v1')).toBe(true);
    expect(matchesEventType(['shop.order.*'], 'shop.orders.placed')).toBe(false);
    expect(matchesEventType(['shop.order.paid.v1'], 'shop.order.placed.v1')).toBe(false);
    expect(matchesEventType(['shop.order.paid.v1', 'github.*'], 'github.push')).toBe(true);
    expect(matchesEventType(['*'], 'anything.at.all')).toBe(true);
  });
});
