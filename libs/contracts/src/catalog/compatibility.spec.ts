import { compareCatalogues, CompatibilityMode, describeIncompatibility, Incompatibility } from './compatibility';
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
      channel: { type: ['string', 'null'], default: 'web' },
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

function incompatibilities(after: JsonSchema): Array<Pick<Incompatibility, 'field' | 'change' | 'direction'>> {
  return compareCatalogues({ [TYPE]: [published()] }, { [TYPE]: after }).incompatible.map(
    ({ field, change, direction }) => ({ field, change, direction }),
  );
}

type Change = (schema: JsonSchema & { properties: Record<string, JsonSchema> }) => void;

describe('the compatibility gate (FULL_TRANSITIVE by default)', () => {
  describe('catches each kind of incompatible change to a published version, naming the field and direction', () => {
    it.each<[string, Change, object[]]>([
      [
        'a required field added',
        (s) => {
          s.properties.storefront = { type: 'string' };
          (s.required as string[]).push('storefront');
        },
        [{ field: 'storefront', change: 'required field added (old data lacks it)', direction: 'backward' }],
      ],
      [
        'an optional field made required',
        (s) => {
          s.properties.note = { type: 'string', maxLength: 2000 };
          (s.required as string[]).push('note');
        },
        [
          { field: 'note', change: 'became required (old data may lack it)', direction: 'backward' },
          { field: 'note', change: 'no longer accepts null', direction: 'backward' },
        ],
      ],
      [
        'a required field removed',
        (s) => delete s.properties.currency,
        [{ field: 'currency', change: 'removed (old readers require it)', direction: 'forward' }],
      ],
      [
        'a nested required field removed',
        (s) => delete defs(s).CustomerV1.properties.email,
        [{ field: 'customer.email', change: 'removed (old readers require it)', direction: 'forward' }],
      ],
      [
        'a field retyped',
        (s) => (s.properties.status = { type: 'integer' }),
        [
          { field: 'status', change: 'retyped from string to integer', direction: 'backward' },
          { field: 'status', change: 'retyped from string to integer', direction: 'forward' },
        ],
      ],
      [
        'an integer widened to a number',
        (s) => (s.properties.amount = { type: 'number', minimum: 0 }),
        [{ field: 'amount', change: 'retyped from integer to number', direction: 'forward' }],
      ],
      [
        'a field inside array items retyped',
        (s) => (defs(s).LineItemV1.properties.quantity = { type: 'string' }),
        [
          { field: 'lineItems[].quantity', change: 'retyped from integer to string', direction: 'backward' },
          { field: 'lineItems[].quantity', change: 'retyped from integer to string', direction: 'forward' },
        ],
      ],
      [
        'an enum narrowed',
        (s) => (s.properties.status = { type: 'string', enum: ['open', 'closed'] }),
        [{ field: 'status', change: 'enum narrowed: "held" removed', direction: 'backward' }],
      ],
      [
        'an enum value added',
        (s) => (s.properties.status = { type: 'string', enum: ['open', 'held', 'closed', 'void'] }),
        [{ field: 'status', change: 'enum widened: "void" added', direction: 'forward' }],
      ],
      [
        'a length bound tightened',
        (s) => (s.properties.orderId = { type: 'string', minLength: 1, maxLength: 64 }),
        [{ field: 'orderId', change: 'maxLength tightened from 200 to 64', direction: 'backward' }],
      ],
      [
        'a length bound loosened: orderId maxLength 200 → 1000',
        (s) => (s.properties.orderId = { type: 'string', minLength: 1, maxLength: 1000 }),
        [{ field: 'orderId', change: 'maxLength loosened from 200 to 1000', direction: 'forward' }],
      ],
      [
        'a minimum raised',
        (s) => (defs(s).LineItemV1.properties.quantity = { type: 'integer', minimum: 2 }),
        [{ field: 'lineItems[].quantity', change: 'minimum tightened from 1 to 2', direction: 'backward' }],
      ],
      [
        'a minimum removed',
        (s) => (s.properties.amount = { type: 'integer' }),
        [{ field: 'amount', change: 'minimum loosened from 0 to none', direction: 'forward' }],
      ],
      [
        'a bound added',
        (s) => (s.properties.lineItems = { ...s.properties.lineItems, maxItems: 100 }),
        [{ field: 'lineItems', change: 'maxItems tightened from none to 100', direction: 'backward' }],
      ],
      [
        'a pattern changed',
        (s) => (s.properties.currency = { type: 'string', pattern: '^(EUR|USD)$' }),
        [
          { field: 'currency', change: 'pattern changed from "^[A-Z]{3}$" to "^(EUR|USD)$"', direction: 'backward' },
          { field: 'currency', change: 'pattern changed from "^[A-Z]{3}$" to "^(EUR|USD)$"', direction: 'forward' },
        ],
      ],
      [
        'a pattern removed',
        (s) => (s.properties.currency = { type: 'string' }),
        [{ field: 'currency', change: 'pattern "^[A-Z]{3}$" removed', direction: 'forward' }],
      ],
      [
        'a format added',
        (s) => (defs(s).CustomerV1.properties.id = { type: 'string', format: 'uuid' }),
        [{ field: 'customer.id', change: 'format "uuid" added', direction: 'backward' }],
      ],
      [
        'a required field made optional',
        (s) => (s.required = (s.required as string[]).filter((name) => name !== 'currency')),
        [{ field: 'currency', change: 'became optional (old readers require it)', direction: 'forward' }],
      ],
      [
        'a field made nullable',
        (s) => (s.properties.orderId = { type: ['string', 'null'], minLength: 1, maxLength: 200 }),
        [{ field: 'orderId', change: 'now accepts null', direction: 'forward' }],
      ],
      [
        'a default removed',
        (s) => (s.properties.channel = { type: ['string', 'null'] }),
        [{ field: 'channel', change: 'default "web" removed', direction: 'backward' }],
      ],
      [
        'a default changed',
        (s) => (s.properties.channel = { type: ['string', 'null'], default: 'app' }),
        [
          { field: 'channel', change: 'default changed from "web" to "app"', direction: 'backward' },
          { field: 'channel', change: 'default changed from "web" to "app"', direction: 'forward' },
        ],
      ],
      [
        'a keyword the gate cannot judge',
        (s) => (s.additionalProperties = false),
        [
          {
            field: '(data)',
            change: 'additionalProperties changed (hookrail cannot tell which data still passes)',
            direction: 'backward',
          },
          {
            field: '(data)',
            change: 'additionalProperties changed (hookrail cannot tell which data still passes)',
            direction: 'forward',
          },
        ],
      ],
    ])('%s', (_kind, change, expected) => {
      expect(incompatibilities(changed(change))).toEqual(expected);
    });

    it('a removed type', () => {
      expect(compareCatalogues({ [TYPE]: [published()] }, {}).incompatible).toEqual([
        {
          type: TYPE,
          field: '(data)',
          change: 'the type was removed; consumers and dead letters still have it',
          direction: 'forward',
          revisions: [1],
        },
      ]);
    });

    it('and says who breaks, against which revisions, and which new version to make', () => {
      expect(
        describeIncompatibility({
          type: TYPE,
          field: 'orderId',
          change: 'maxLength loosened from 200 to 1000',
          direction: 'forward',
          revisions: [1, 2],
        }),
      ).toBe(
        'shop.order.placed.v1: orderId: maxLength loosened from 200 to 1000: old readers cannot read new data ' +
          '(forward), against committed revisions 1, 2; an incompatible change needs a new type ' +
          '(shop.order.placed.v2) beside shop.order.placed.v1',
      );
    });
  });

  describe('lets changes both old and new readers accept pass, reporting them so the catalogue gets exported', () => {
    it.each<[string, Change, string[]]>([
      ['an optional field added', (s) => (s.properties.giftWrap = { type: ['boolean', 'null'] }), [TYPE]],
      [
        'an optional nested field added',
        (s) => (defs(s).CustomerV1.properties.phone = { type: ['string', 'null'], maxLength: 40 }),
        [TYPE],
      ],
      ['an optional field removed', (s) => delete s.properties.note, [TYPE]],
      ['a description added', (s) => (s.properties.amount = { ...s.properties.amount, description: 'in cents' }), []],
      ['an example added', (s) => (s.examples = [{ orderId: 'ord_1' }]), []],
    ])('%s', (_kind, change, revised) => {
      expect(compareCatalogues({ [TYPE]: [published()] }, { [TYPE]: changed(change) })).toEqual({
        incompatible: [],
        added: [],
        changed: [TYPE],
        revised,
      });
    });

    it('a new type, and an unchanged one', () => {
      expect(
        compareCatalogues({ [TYPE]: [published()] }, { [TYPE]: published(), 'shop.order.placed.v2': published() }),
      ).toEqual({ incompatible: [], added: ['shop.order.placed.v2'], changed: [], revised: [] });
    });
  });

  describe('transitive: against every committed revision, not only the latest', () => {
    // Revision 1 has `note`; revision 2 dropped it (optional, so compatible); a new schema brings `note` back as a number.
    const revisions = [published(), changed((s) => delete s.properties.note)];
    const noteAsNumber = changed((s) => (s.properties.note = { type: ['number', 'null'] }));

    it('refuses a field brought back with other rules than an earlier revision gave it', () => {
      expect(compareCatalogues({ [TYPE]: revisions }, { [TYPE]: noteAsNumber }).incompatible).toEqual([
        { type: TYPE, field: 'note', change: 'retyped from string to number', direction: 'backward', revisions: [1] },
        { type: TYPE, field: 'note', change: 'retyped from string to number', direction: 'forward', revisions: [1] },
      ]);
    });

    it('which a non-transitive mode, comparing with the latest revision only, lets through', () => {
      expect(compareCatalogues({ [TYPE]: revisions }, { [TYPE]: noteAsNumber }, 'FULL').incompatible).toEqual([]);
    });

    it('names every revision a change breaks against, once', () => {
      const loosened = changed((s) => (s.properties.orderId = { type: 'string', minLength: 1, maxLength: 1000 }));
      expect(compareCatalogues({ [TYPE]: revisions }, { [TYPE]: loosened }).incompatible).toEqual([
        {
          type: TYPE,
          field: 'orderId',
          change: 'maxLength loosened from 200 to 1000',
          direction: 'forward',
          revisions: [1, 2],
        },
      ]);
    });
  });

  describe('the other modes check one direction each', () => {
    const loosened = changed((s) => (s.properties.orderId = { type: 'string', minLength: 1, maxLength: 1000 }));
    const tightened = changed((s) => (s.properties.orderId = { type: 'string', minLength: 1, maxLength: 64 }));
    const compare = (after: JsonSchema, mode: CompatibilityMode) =>
      compareCatalogues({ [TYPE]: [published()] }, { [TYPE]: after }, mode).incompatible.map((i) => i.direction);

    it.each<[CompatibilityMode, string[], string[]]>([
      ['BACKWARD', [], ['backward']],
      ['BACKWARD_TRANSITIVE', [], ['backward']],
      ['FORWARD', ['forward'], []],
      ['FORWARD_TRANSITIVE', ['forward'], []],
      ['FULL', ['forward'], ['backward']],
    ])('%s', (mode, whenLoosened, whenTightened) => {
      expect(compare(loosened, mode)).toEqual(whenLoosened);
      expect(compare(tightened, mode)).toEqual(whenTightened);
    });
  });
});
