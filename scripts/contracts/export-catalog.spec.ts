import 'reflect-metadata';
import { catalogFiles, readCatalogDirectory } from '@app/contracts';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CATALOG_COMPATIBILITY, CATALOG_DIRECTORY, catalogInput } from './catalog-input';
import { exportCatalog } from './export-catalog';

const PLACED = 'schemas/shop.order.placed.v1.json';

/**
 * `npm run contracts:export` on a copy of the committed catalogue, with the generated shop.order.placed.v1 changed
 * the way a contract edit would change it.
 */
describe('contracts:export against the committed catalogue', () => {
  let directory: string;
  const generated = catalogFiles(catalogInput());

  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'hookrail-contracts-'));
    cpSync(path.resolve(__dirname, '../..', CATALOG_DIRECTORY), directory, { recursive: true });
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  /** The generated files with shop.order.placed.v1's schema changed by `edit`. */
  function withPlaced(edit: (schema: any) => void): Record<string, string> {
    const schema = JSON.parse(generated[PLACED]);
    edit(schema);
    return { ...generated, [PLACED]: `${JSON.stringify(schema, null, 2)}\n` };
  }

  it('refuses orderId maxLength raised from 200 to 1000, naming type, field and direction, and writes nothing', () => {
    const before = readCatalogDirectory(directory);
    const result = exportCatalog(
      directory,
      withPlaced((schema) => (schema.properties.orderId.maxLength = 1000)),
      CATALOG_COMPATIBILITY,
    );
    expect(result.ok).toBe(false);
    expect(result.message).toContain(
      'shop.order.placed.v1: orderId: maxLength loosened from 200 to 1000: old readers cannot read new data (forward)',
    );
    expect(result.message).toContain('(FULL_TRANSITIVE)');
    expect(readCatalogDirectory(directory)).toEqual(before);
  });

  it('refuses a value added to an enum and a default removed', () => {
    // The committed schema as a contract with @IsIn and a default would have written it.
    const committed = withPlaced((schema) => {
      schema.properties.currency = { type: 'string', enum: ['EUR', 'USD'] };
      schema.properties.note.default = 'none';
    });
    writeFileSync(path.join(directory, PLACED), committed[PLACED]);
    const result = exportCatalog(
      directory,
      withPlaced((schema) => (schema.properties.currency = { type: 'string', enum: ['EUR', 'USD', 'GBP'] })),
      CATALOG_COMPATIBILITY,
    );
    expect(result.ok).toBe(false);
    expect(result.message).toContain('shop.order.placed.v1: currency: enum widened: "GBP" added: old readers');
    expect(result.message).toContain('shop.order.placed.v1: note: default "none" removed: new readers cannot read old');
  });

  it('writes an optional field added, keeping the replaced schema as revision 1 that the next change must meet', () => {
    const first = exportCatalog(
      directory,
      withPlaced((schema) => (schema.properties.giftWrap = { type: ['boolean', 'null'] })),
      CATALOG_COMPATIBILITY,
    );
    expect(first).toMatchObject({ ok: true, written: [PLACED, 'revisions/shop.order.placed.v1/1.json'] });
    expect(readCatalogDirectory(directory)['revisions/shop.order.placed.v1/1.json']).toBe(generated[PLACED]);

    // Dropping the optional `note` is compatible with the latest revision and with revision 1 ...
    const second = exportCatalog(
      directory,
      withPlaced((schema) => {
        schema.properties.giftWrap = { type: ['boolean', 'null'] };
        delete schema.properties.note;
      }),
      CATALOG_COMPATIBILITY,
    );
    expect(second).toMatchObject({ ok: true, written: [PLACED, 'revisions/shop.order.placed.v1/2.json'] });

    // ... but bringing `note` back as a number is not: revisions 1 and 2 had it as a string.
    const third = exportCatalog(
      directory,
      withPlaced((schema) => {
        schema.properties.giftWrap = { type: ['boolean', 'null'] };
        schema.properties.note = { type: ['number', 'null'] };
      }),
      CATALOG_COMPATIBILITY,
    );
    expect(third.ok).toBe(false);
    expect(third.message).toContain(
      'shop.order.placed.v1: note: retyped from string to number: new readers cannot read old data (backward), ' +
        'against committed revisions 1, 2;',
    );
  });

  it('rewrites a description without a new revision', () => {
    const result = exportCatalog(
      directory,
      withPlaced((schema) => (schema.properties.orderId.description = 'The order id.')),
      CATALOG_COMPATIBILITY,
    );
    expect(result).toMatchObject({ ok: true, written: [PLACED] });
  });
});
