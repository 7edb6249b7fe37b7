import { compareCatalogues, describeIncompatibility, Incompatibility } from './compatibility';
import { JsonSchema } from './json-schema';

const TYPE = 'shop.order.placed.v1';

/** A published schema, shaped as the exporter writes them (nested classes in $defs, optional fields nullable). */
function published(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:hookrail:event:${TYPE}`,
    title: TYPE,
    type: 'object',
    properties: {
      orderId: { type: 'string', minLength: 1, maxLength: 200 },
      status: { type: 'string', enum: ['open', 'held', 'closed'] },
      amount: { type: 'integer', minimum: 0 },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      customer: { $ref: '#/$defs/CustomerV1' },
      lineItems: { type: 'array', minItems: 1, items: { $ref: '#/$defs/LineItemV1' } },
      note: { type: ['string', 'null'], maxLength: 2000 },
    },
    required: ['orderId', 'status', 'amount', 'currency', 'customer', 'lineItems'],
    $defs: {
      CustomerV1: {
        type: 'object',
        properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } },
        required: ['id', 'email'],
      },
      LineItemV1: {
        type: 'object',
        properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
        required: ['sku', 'quantity'],
      },
    },
  };
}

/** The published schema with one change applied. */
function changed(change: (schema: JsonSchema & { properties: Record<string, JsonSchema> }) => void): JsonSchema {
  const schema = published() as JsonSchema & { properties: Record<string, JsonSchema> };
  change(schema);
  return schema;
}

const defs = (schema: JsonSchema) =>
  schema.$defs as Record<string, JsonSchema & { properties: Record<string, JsonSchema> }>;

function incompatibilities(after: JsonSchema): Array<Pick<Incompatibility, 'field' | 'change'>> {
  return compareCatalogues({ [TYPE]: published() }, { [TYPE]: after }).incompatible.map(({ field, change }) => ({
    field,
    change,
  }));
}

describe('the compatibility gate', () => {
  describe('catches each kind of incompatible change to a published version and names the field', () => {
    it.each<[string, (schema: JsonSchema & { properties: Record<string, JsonSchema> }) => void, object[]]>([
      [
        'a required field added',
        (s) => {
          s.properties.channel = { type: 'string' };
          (s.required as string[]).push('channel');
        },
        [{ field: 'channel', change: 'required field added' }],
      ],
      [
        'an optional field made required',
        (s) => {
          s.properties.note = { type: 'string', maxLength: 2000 };
          (s.required as string[]).push('note');
        },
        [
          { field: 'note', change: 'became required' },
          { field: 'note', change: 'no longer accepts null' },
        ],
      ],
      ['a field removed', (s) => delete s.properties.currency, [{ field: 'currency', change: 'removed' }]],
      [
        'a nested field removed',
        (s) => delete defs(s).CustomerV1.properties.email,
        [{ field: 'customer.email', change: 'removed' }],
      ],
      [
        'a field retyped',
        (s) => (s.properties.amount = { type: 'number', minimum: 0 }),
        [{ field: 'amount', change: 'retyped from integer to number' }],
      ],
      [
        'a field inside array items retyped',
        (s) => (defs(s).LineItemV1.properties.quantity = { type: 'string' }),
        [{ field: 'lineItems[].quantity', change: 'retyped from integer to string' }],
      ],
      [
        'an enum narrowed',
        (s) => (s.properties.status = { type: 'string', enum: ['open', 'closed'] }),
        [{ field: 'status', change: 'enum narrowed: "held" removed' }],
      ],
      [
        'a length bound tightened',
        (s) => (s.properties.orderId = { type: 'string', minLength: 1, maxLength: 64 }),
        [{ field: 'orderId', change: 'maxLength tightened from 200 to 64' }],
      ],
      [
        'a minimum raised',
        (s) => (defs(s).LineItemV1.properties.quantity = { type: 'integer', minimum: 2 }),
        [{ field: 'lineItems[].quantity', change: 'minimum tightened from 1 to 2' }],
      ],
      [
        'a bound added',
        (s) => (s.properties.lineItems = { ...s.properties.lineItems, maxItems: 100 }),
        [{ field: 'lineItems', change: 'maxItems tightened from none to 100' }],
      ],
      [
        'a pattern changed',
        (s) => (s.properties.currency = { type: 'string', pattern: '^(EUR|USD)$' }),
        [{ field: 'currency', change: 'pattern changed from "^[A-Z]{3}$" to "^(EUR|USD)$"' }],
      ],
      [
        'a format added',
        (s) => (defs(s).CustomerV1.properties.id = { type: 'string', format: 'uuid' }),
        [{ field: 'customer.id', change: 'format changed from null to "uuid"' }],
      ],
      [
        'a required field made optional',
        (s) => (s.required = (s.required as string[]).filter((name) => name !== 'currency')),
        [{ field: 'currency', change: 'became optional (consumers may find it missing)' }],
      ],
      [
        'a keyword the gate cannot judge',
        (s) => (s.additionalProperties = false),
        [
          {
            field: '(data)',
            change: 'additionalProperties changed (hookrail cannot tell that every old message still passes)',
          },
        ],
      ],
    ])('%s', (_kind, change, expected) => {
      expect(incompatibilities(changed(change))).toEqual(expected);
    });

    it('a removed type', () => {
      expect(compareCatalogues({ [TYPE]: published() }, {}).incompatible).toEqual([
        { type: TYPE, field: '(data)', change: 'the type was removed; consumers and dead letters still have it' },
      ]);
    });

    it('and says which new version to make', () => {
      expect(describeIncompatibility({ type: TYPE, field: 'customer.email', change: 'removed' })).toBe(
        'shop.order.placed.v1: customer.email: removed; an incompatible change needs a new type ' +
          '(shop.order.placed.v2) beside shop.order.placed.v1',
      );
    });
  });

  describe('lets compatible changes pass, reporting them as changed so the catalogue gets exported', () => {
    it.each<[string, (schema: JsonSchema & { properties: Record<string, JsonSchema> }) => void]>([
      ['an optional field added', (s) => (s.properties.giftWrap = { type: ['boolean', 'null'] })],
      [
        'an optional nested field added',
        (s) => (defs(s).CustomerV1.properties.phone = { type: ['string', 'null'], maxLength: 40 }),
      ],
      ['an enum widened', (s) => (s.properties.status = { type: 'string', enum: ['open', 'held', 'closed', 'void'] })],
      ['a bound loosened', (s) => (s.properties.orderId = { type: 'string', minLength: 1, maxLength: 400 })],
      ['a pattern removed', (s) => (s.properties.currency = { type: 'string' })],
      ['a description added', (s) => (s.properties.amount = { ...s.properties.amount, description: 'in cents' })],
    ])('%s', (_kind, change) => {
      expect(compareCatalogues({ [TYPE]: published() }, { [TYPE]: changed(change) })).toEqual({
        incompatible: [],
        added: [],
        changed: [TYPE],
      });
    });

    it('a new type, and an unchanged one', () => {
      expect(
        compareCatalogues({ [TYPE]: published() }, { [TYPE]: published(), 'shop.order.placed.v2': published() }),
      ).toEqual({ incompatible: [], added: ['shop.order.placed.v2'], changed: [] });
    });
  });
});
