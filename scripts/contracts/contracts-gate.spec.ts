import 'reflect-metadata';
import { Parser } from '@asyncapi/parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  catalogFiles,
  compareCatalogues,
  describeIncompatibility,
  EVENT_TYPES,
  readCatalogDirectory,
  revisionsOf,
  schemasOf,
  SCHEMA_FORMAT,
  validateEventData,
} from '@app/contracts';
import path from 'node:path';
import { CONSUMER_SERVICES } from '../../apps/consumers/src/consumer-services';
import { CATALOG_COMPATIBILITY, CATALOG_DIRECTORY, catalogInput } from './catalog-input';

/**
 * The contracts gate in `npm test`: the committed catalogue (contracts/) against what the contracts and the consumer
 * groups generate now. A change to a published type that old or new readers could not read, against any committed
 * revision (FULL_TRANSITIVE), fails, naming the type, field and direction; a compatible one (or a new type) fails
 * only until the catalogue is exported and committed.
 */
describe('the committed event catalogue (contracts/)', () => {
  const committed = readCatalogDirectory(path.resolve(__dirname, '../..', CATALOG_DIRECTORY));
  const fresh = catalogFiles(catalogInput());

  it('has no incompatible change to a published event type', () => {
    const { incompatible } = compareCatalogues(revisionsOf(committed), schemasOf(fresh), CATALOG_COMPATIBILITY);
    if (incompatible.length > 0)
      throw new Error(
        `incompatible changes to published event types:\n${incompatible.map(describeIncompatibility).join('\n')}`,
      );
    expect(incompatible).toEqual([]);
  });

  it('is up to date: what npm run contracts:export writes is what is committed', () => {
    const stale = Object.keys(fresh).filter((name) => committed[name] !== fresh[name]);
    if (stale.length > 0)
      throw new Error(
        `contracts/ is stale (${stale.join(', ')} differ from what the contracts and consumer groups generate): ` +
          'run npm run contracts:export and commit contracts/',
      );
    const generated = Object.keys(committed).filter((name) => !name.startsWith('revisions/'));
    expect(generated.sort()).toEqual(Object.keys(fresh).sort());
  });

  it('covers every registered event type and every consumer group', () => {
    expect(Object.keys(schemasOf(committed)).sort()).toEqual(Object.keys(EVENT_TYPES).sort());
    const channels = JSON.parse(committed['asyncapi.json']).channels as Record<string, { 'x-hookrail-owner'?: object }>;
    for (const service of Object.values(CONSUMER_SERVICES)) {
      expect(channels[`${service.group}.dlt`]?.['x-hookrail-owner']).toEqual(service.owner);
      expect(channels[`${service.group}.replay`]?.['x-hookrail-owner']).toEqual(service.owner);
    }
  });

  it('holds an AsyncAPI document the official parser accepts without errors or warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(committed['asyncapi.json']);
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  describe('describes every type from its contract class\'s doc comment, with one example', () => {
    const asyncApi = JSON.parse(committed['asyncapi.json']);
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const problems = (schema: object, data: unknown) =>
      ajv.validate(schema, data) ? [] : (ajv.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);

    it.each(Object.keys(EVENT_TYPES).sort())('%s', (type) => {
      const schema = JSON.parse(committed[`schemas/${type}.json`]);
      expect(schema.description).toEqual(expect.any(String));
      expect(schema.description).not.toMatch(/^The data of a /);
      expect(schema.examples).toHaveLength(1);
      const [example] = schema.examples;
      // The example passes the committed schema (formats asserted) and the class the code validates with.
      expect(problems(schema, example)).toEqual([]);
      expect(validateEventData(type, example)).toEqual({ ok: true, data: expect.anything() });

      // The AsyncAPI message: 2020-12 payload and headers, the same description, the example with its headers.
      const message = asyncApi.components.messages[type];
      expect(message.payload.schemaFormat).toBe(SCHEMA_FORMAT);
      expect(message.headers.schemaFormat).toBe(SCHEMA_FORMAT);
      expect(message.description).toContain(schema.description);
      expect(message.examples).toHaveLength(1);
      expect(message.examples[0].payload).toEqual(example);
      expect(problems(message.payload.schema, message.examples[0].payload)).toEqual([]);
      expect(problems(message.headers.schema, message.examples[0].headers)).toEqual([]);
      expect(message.examples[0].headers.ce_dataschema).toBe(schema.$id);
    });

    it('and the check can fail: an example that breaks its schema is reported', () => {
      const { $id: _compiledAbove, ...schema } = JSON.parse(committed['schemas/shop.order.placed.v1.json']);
      expect(problems(schema, { ...schema.examples[0], orderId: 'o'.repeat(201) })).toEqual([
        '/orderId must NOT have more than 200 characters',
      ]);
    });

    it('declares one schema dialect, 2020-12, on every message', () => {
      for (const message of Object.values<any>(asyncApi.components.messages)) {
        expect([message.payload.schemaFormat, message.headers.schemaFormat]).toEqual([SCHEMA_FORMAT, SCHEMA_FORMAT]);
        expect(() => ajv.compile(message.payload.schema)).not.toThrow();
        expect(() => ajv.compile(message.headers.schema)).not.toThrow();
      }
    });
  });
});
