import 'reflect-metadata';
import { Parser } from '@asyncapi/parser';
import {
  catalogFiles,
  compareCatalogues,
  describeIncompatibility,
  EVENT_TYPES,
  readCatalogDirectory,
  revisionsOf,
  schemasOf,
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
});
