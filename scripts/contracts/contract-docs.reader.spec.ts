import 'reflect-metadata';
import { CatalogError, EVENT_TYPES, eventSchemas } from '@app/contracts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONTRACTS_SOURCE, readContractDocs } from './contract-docs.reader';

describe('the contract classes\' doc comments, the one source of the catalogue\'s descriptions and examples', () => {
  let directory: string;

  beforeEach(() => (directory = mkdtempSync(path.join(os.tmpdir(), 'hookrail-docs-'))));
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('reads the description (paragraphs kept), @source, @example as JSON, and each property\'s comment', () => {
    writeFileSync(
      path.join(directory, 'widget.event.ts'),
      `/**
 * A widget was made
 * in the factory.
 *
 * It ships next.
 *
 * @source /factories/one
 * @example
 * {
 *   "widgetId": "w_1",
 *   "parts": [{ "sku": "a" }]
 * }
 */
export class WidgetMadeV1 extends Base {
  /** The widget's id. */
  // a note for whoever changes the class, not for the catalogue
  @IsString()
  widgetId: string;

  @IsArray()
  parts: Part[];
}`,
    );
    expect(readContractDocs(directory)).toEqual({
      WidgetMadeV1: {
        description: 'A widget was made in the factory.\n\nIt ships next.',
        source: '/factories/one',
        example: { widgetId: 'w_1', parts: [{ sku: 'a' }] },
        properties: { widgetId: "The widget's id." },
      },
    });
  });

  it('refuses an @example that is not JSON, naming the class and file', () => {
    const file = path.join(directory, 'broken.event.ts');
    writeFileSync(file, `/**\n * Broken.\n *\n * @example\n * { widgetId: 'w_1' }\n */\nexport class BrokenV1 {}\n`);
    expect(() => readContractDocs(directory)).toThrow(`${file}: the @example of BrokenV1 is not JSON`);
  });

  it('gives every registered contract class a description, a source and an example', () => {
    const docs = readContractDocs(path.resolve(__dirname, '../..', CONTRACTS_SOURCE));
    for (const target of Object.values(EVENT_TYPES))
      expect(docs[target.name]).toEqual(
        expect.objectContaining({ description: expect.any(String), source: expect.stringMatching(/^\//) }),
      );
  });

  it('makes the export refuse a registered class without them, naming it', () => {
    const docs = readContractDocs(path.resolve(__dirname, '../..', CONTRACTS_SOURCE));
    const { ShopOrderPaidV1: _undocumented, ...others } = docs;
    expect(() => eventSchemas(others)).toThrow(CatalogError);
    expect(() => eventSchemas(others)).toThrow(/^ShopOrderPaidV1 \(shop\.order\.paid\.v1\) needs a doc comment/);
  });
});
