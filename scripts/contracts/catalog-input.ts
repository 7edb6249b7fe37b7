import { CatalogInput, CompatibilityMode, DEAD_LETTER_STORE_GROUP, DEFAULT_COMPATIBILITY } from '@app/contracts';
import path from 'node:path';
import { version } from '../../package.json';
import { describeConsumerGroups } from '../../apps/consumers/src/consumer-groups.catalog';
import { CONTRACTS_SOURCE, readContractDocs } from './contract-docs.reader';

/** Where the catalogue is committed, from the repository root. */
export const CATALOG_DIRECTORY = 'contracts';

/**
 * How the export and the gate in `npm test` judge a change to a published type: FULL_TRANSITIVE, new readers read
 * old data and old readers read new data, against every committed revision.
 */
export const CATALOG_COMPATIBILITY: CompatibilityMode = DEFAULT_COMPATIBILITY;

/**
 * What the catalogue is generated from: every registered contract with its doc comments, every consumer group in the
 * registry.
 */
export function catalogInput(): CatalogInput {
  return {
    version,
    groups: describeConsumerGroups(),
    deadLetterStoreGroup: DEAD_LETTER_STORE_GROUP,
    docs: readContractDocs(path.resolve(__dirname, '../..', CONTRACTS_SOURCE)),
  };
}
