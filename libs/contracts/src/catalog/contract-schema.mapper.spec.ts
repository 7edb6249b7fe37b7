import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import { IsArray, IsHexColor, IsOptional, IsString, ValidateIf, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { EVENT_TYPES, validateEventData } from '../event-registry';
import { CatalogError, contractSchema } from './contract-schema.mapper';
import { eventSchemas } from './event-schemas';

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

/** Values that break one rule or another, and a few that keep them. */
const junk = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    'x'.repeat(201),
    'x'.repeat(2001),
    'eur',
    'USD',
    'not-an-email',
    'bob@example.org',
    '2026-13-45',
    '2026-11-30',
    '2026-11-30T08:15:00+01:00',
    0,
    -1,
    1.5,
    1e21,
    true,
    [],
    {},
    [{}],
    [null],
    { id: 'c' },
    { id: 'c', email: 'c@example.com' },
  ),
  fc.string(),
  fc.integer(),
  fc.jsonValue(),
);

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

function ajv(): Ajv2020 {
  const instance = new Ajv2020({ strict: true, allErrors: true });
  addFormats(instance);
  return instance;
}

describe('contract classes → JSON Schema 2020-12', () => {
  const schemas = eventSchemas();

  it('exports one schema per registered event type, each a valid 2020-12 schema', () => {
    expect(Object.keys(schemas)).toEqual(Object.keys(EVENT_TYPES).sort());
    const validator = ajv();
    for (const schema of Object.values(schemas)) expect(validator.validateSchema(schema)).toBe(true);
  });

  it.each(Object.keys(EVENT_TYPES))(
    'agrees with class-validator on 2,000 mutated %s payloads (ajv with formats)',
    (type) => {
      const validate = ajv().compile(schemas[type]);
      let valid = 0;
      fc.assert(
        fc.property(mutatedOrder, (order) => {
          const expected = validateEventData(type, JSON.parse(JSON.stringify(order))).ok;
          if (expected) valid += 1;
          expect({ order, valid: validate(order) }).toEqual({ order, valid: expected });
        }),
        { numRuns: 2_000 },
      );
      expect(valid).toBeGreaterThan(0);
      expect(valid).toBeLessThan(2_000);
    },
  );

  it('lets an optional field be null, as @IsOptional does', () => {
    const validate = ajv().compile(schemas['shop.order.placed.v1']);
    const order = { ...validOrder, note: null, customer: { ...validOrder.customer, name: null } };
    expect(validateEventData('shop.order.placed.v1', order).ok).toBe(true);
    expect(validate(order)).toBe(true);
  });

  describe('refuses a rule a schema would state wrongly, naming the class and property', () => {
    class Inner {
      @IsString()
      id: string;
    }

    it('@ValidateNested() without @IsObject() (a missing value or an array would pass)', () => {
      class Outer {
        @ValidateNested()
        @Type(() => Inner)
        inner: Inner;
      }
      expect(() => contractSchema(Outer, { id: 'x', title: 'x' })).toThrow(
        new CatalogError(
          'Outer.inner: @ValidateNested() without @IsObject() also accepts an array or no value; add @IsObject()',
        ),
      );
    });

    it('@ValidateIf (a condition the schema cannot state)', () => {
      class Conditional {
        @ValidateIf((object: Conditional) => object.kind === 'a')
        @IsString()
        kind: string;
      }
      expect(() => contractSchema(Conditional, { id: 'x', title: 'x' })).toThrow(/Conditional\.kind: @ValidateIf/);
    });

    it('a decorator without a mapping', () => {
      class Colour {
        @IsHexColor()
        colour: string;
      }
      expect(() => contractSchema(Colour, { id: 'x', title: 'x' })).toThrow(
        'Colour.colour: @isHexColor has no JSON Schema mapping; add one to MAPPINGS in contract-schema.mapper.ts',
      );
    });

    it('{ each: true } on a property that is not also @IsArray()', () => {
      class Tags {
        @IsOptional()
        @IsString({ each: true })
        tags?: string[];
      }
      expect(() => contractSchema(Tags, { id: 'x', title: 'x' })).toThrow(/Tags\.tags: .*add @IsArray\(\)/);
    });

    it('maps { each: true } under @IsArray() to items', () => {
      class Tags {
        @IsArray()
        @IsString({ each: true })
        tags: string[];
      }
      expect(contractSchema(Tags, { id: 'x', title: 'x' }).properties).toEqual({
        tags: { type: 'array', items: { type: 'string' } },
      });
    });
  });
});
