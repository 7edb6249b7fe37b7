import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsInt, IsString, MaxLength, validateSync, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { EVENT_TYPES } from './event-registry';
import { fastCheckPlainValid, fastCheckValid } from './fast-check-valid';

const validOrder = {
  orderId: 'ord_1',
  customer: { id: 'cus_1', email: 'ada@example.com', name: 'Ada' },
  amount: 4200,
  currency: 'EUR',
  lineItems: [{ sku: 'book', quantity: 2, unitAmount: 2100 }],
  note: 'gift wrap please',
  paymentId: 'pay_1',
  paidAt: '2026-11-29T10:00:00Z',
  reason: 'customer_request',
  cancelledAt: '2026-11-29T11:00:00Z',
  // The fulfilment saga's commands, replies and outcomes.
  sagaId: '6f1c1f5e-7d0a-4a53-9a43-6a3f0c1f7b10',
  commandId: '0b6f8a86-1f1d-4e0c-8f4e-3c2b9f5d2a71',
  idempotencyKey: '6f1c1f5e-7d0a-4a53-9a43-6a3f0c1f7b10:charge-card:action',
  customerId: 'cus_1',
  chargeId: 'ch_1',
  shipmentId: 'shp_1',
  recipient: 'cus_1',
  lines: [{ sku: 'book', quantity: 2 }],
  fulfilledAt: '2026-11-29T12:00:00Z',
  failedAt: '2026-11-29T12:00:00Z',
};

/** Values that break one rule or another: wrong types, empty, too long, bad formats, nested junk. */
const junk = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    ' ',
    'x'.repeat(201),
    'x'.repeat(2001),
    'eur',
    'EURO',
    'not-an-email',
    '2026-13-45',
    0,
    -1,
    1.5,
    1e21,
    true,
    [],
    {},
    [{}],
    [null],
    [1],
    { id: 'c' },
  ),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.jsonValue(),
);

/** A valid order with some top-level or nested fields replaced, added or removed. */
const mutatedOrder = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...Object.keys(validOrder), 'extra'), junk, { maxKeys: 3 }),
    fc.dictionary(fc.constantFrom('id', 'email', 'name', 'extra'), junk, { maxKeys: 2 }),
    fc.array(
      fc.oneof(
        fc.record({
          sku: fc.oneof(fc.constant('sku'), junk),
          quantity: fc.oneof(fc.constant(1), junk),
          unitAmount: fc.oneof(fc.constant(0), junk),
        }),
        junk,
      ),
      { maxLength: 3 },
    ),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([top, customer, lineItems, replaceCustomer, replaceItems]) => {
    const order: Record<string, unknown> = { ...validOrder, ...top };
    if (replaceCustomer) order.customer = { ...validOrder.customer, ...customer };
    if (replaceItems) order.lineItems = lineItems;
    for (const [key, value] of Object.entries(top)) if (value === undefined) delete order[key];
    return order;
  });

function classValidatorSays(instance: object): boolean {
  return validateSync(instance, { forbidUnknownValues: true }).length === 0;
}

describe('fastCheckValid', () => {
  // The shop order types get 2,000 runs each; the fulfilment saga's many small types share their rules, 400 each.
  const runsOf = (type: string) => (type.startsWith('shop.order.') ? 2_000 : 400);

  it.each(Object.keys(EVENT_TYPES))('gives class-validator’s answer for mutated %s payloads', (type) => {
    const eventClass = EVENT_TYPES[type];
    let valid = 0;
    fc.assert(
      fc.property(mutatedOrder, (order) => {
        const instance = plainToInstance(eventClass, order);
        const expected = classValidatorSays(instance);
        if (expected) valid += 1;
        expect(fastCheckValid(instance)).toBe(expected);
      }),
      { numRuns: runsOf(type) },
    );
    // Both answers occur, so the property is not vacuous.
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThan(runsOf(type));
  });

  it('says yes to an untouched valid payload of every type', () => {
    for (const eventClass of Object.values(EVENT_TYPES)) {
      const instance = plainToInstance(eventClass, validOrder);
      expect(fastCheckValid(instance)).toBe(classValidatorSays(instance));
    }
    expect(fastCheckValid(plainToInstance(EVENT_TYPES['shop.order.placed.v1'], validOrder))).toBe(true);
  });

  it('says no to a plain object, as forbidUnknownValues does', () => {
    expect(fastCheckValid({ ...validOrder })).toBe(false);
    expect(classValidatorSays({ ...validOrder })).toBe(false);
  });

  it('answers for a class it has not seen and validates each element of an `each` rule', () => {
    class Tags {
      @IsString({ each: true })
      @MaxLength(3, { each: true })
      tags!: unknown;
    }
    for (const tags of [['a', 'bc'], ['a', 'long'], 'abc', 'long', [1], new Set(['ok']), new Set(['toolong'])]) {
      const instance = Object.assign(new Tags(), { tags });
      expect(fastCheckValid(instance)).toBe(classValidatorSays(instance));
    }
  });
});

describe('fastCheckPlainValid', () => {
  it.each(Object.keys(EVENT_TYPES))(
    'gives class-validator’s answer on plainToInstance for 2,000 mutated %s payloads, reading the JSON itself',
    (type) => {
      const eventClass = EVENT_TYPES[type];
      let valid = 0;
      fc.assert(
        fc.property(mutatedOrder, (order) => {
          const plain = JSON.parse(JSON.stringify(order)) as object;
          const expected = classValidatorSays(plainToInstance(eventClass, plain));
          if (expected) valid += 1;
          expect(fastCheckPlainValid(eventClass, plain)).toBe(expected);
        }),
        { numRuns: 2_000 },
      );
      expect(valid).toBeGreaterThan(0);
      expect(valid).toBeLessThan(2_000);
    },
  );

  it('says yes to an untouched valid payload and leaves it as it was', () => {
    const plain = JSON.parse(JSON.stringify(validOrder)) as object;
    expect(fastCheckPlainValid(EVENT_TYPES['shop.order.placed.v1'], plain)).toBe(true);
    expect(plain).toEqual(JSON.parse(JSON.stringify(validOrder)));
  });

  it('cannot tell when plainToInstance would change a value, and a nested value without a @Type', () => {
    class Converted {
      @Transform(({ value }) => Number(value))
      @IsInt()
      amount!: number;
    }
    class Untyped {
      @ValidateNested()
      inner!: unknown;
    }
    class Primitive {
      @ValidateNested()
      @Type(() => Number)
      amount!: unknown;
    }
    expect(fastCheckPlainValid(Converted, { amount: '42' })).toBeUndefined();
    expect(fastCheckPlainValid(Untyped, { inner: { a: 1 } })).toBeUndefined();
    expect(fastCheckPlainValid(Primitive, { amount: '42' })).toBeUndefined();
  });
});
