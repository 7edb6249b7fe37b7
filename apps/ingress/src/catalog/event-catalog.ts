import {
  AsyncApiDocument,
  CatalogSummary,
  JsonSchema,
  readCatalogDirectory,
  schemasOf,
  withBrokers,
} from '@app/contracts';
import path from 'node:path';
import { notFound } from '../http/problem';

export interface CatalogIndex extends CatalogSummary {
  asyncapi: string;
  types: Array<CatalogSummary['types'][number] & { schema: string }>;
}

/**
 * The event catalogue as `npm run contracts:export` committed it (contracts/), read once at start: what downstream
 * teams may rely on, checked against the code by the contracts gate. Public, holds no secrets; the AsyncAPI
 * document names this deployment's brokers as its servers.
 */
export class EventCatalog {
  private constructor(
    private readonly directory: string,
    private readonly asyncApi?: AsyncApiDocument,
    private readonly summary?: CatalogSummary,
    private readonly schemas: Readonly<Record<string, JsonSchema>> = {},
  ) {}

  /** An absent or empty directory gives an empty catalogue whose routes answer 404 saying so. */
  static load(directory: string, brokers: readonly string[]): EventCatalog {
    const files = readCatalogDirectory(path.resolve(directory));
    if (!files['asyncapi.json'] || !files['catalog.json']) return new EventCatalog(directory);
    return new EventCatalog(
      directory,
      withBrokers(JSON.parse(files['asyncapi.json']) as AsyncApiDocument, brokers),
      JSON.parse(files['catalog.json']) as CatalogSummary,
      schemasOf(files),
    );
  }

  get loaded(): boolean {
    return this.summary !== undefined;
  }

  index(): CatalogIndex {
    const summary = this.required(this.summary);
    return {
      ...summary,
      asyncapi: '/catalog/asyncapi.json',
      types: summary.types.map((entry) => ({ ...entry, schema: `/catalog/schemas/${entry.type}` })),
    };
  }

  asyncApiDocument(): AsyncApiDocument {
    return this.required(this.asyncApi);
  }

  /** `type` may end in `.json`, so that tools resolving a schema file by name find it too. */
  schema(type: string): JsonSchema {
    this.required(this.summary);
    const name = type.endsWith('.json') ? type.slice(0, -'.json'.length) : type;
    const schema = Object.prototype.hasOwnProperty.call(this.schemas, name) ? this.schemas[name] : undefined;
    if (!schema)
      throw notFound(
        `no event type "${name}" in the catalogue; known types: ${Object.keys(this.schemas).sort().join(', ')}`,
      );
    return schema;
  }

  private required<T>(part: T | undefined): T {
    if (part === undefined)
      throw notFound(`no event catalogue in ${this.directory}; npm run contracts:export writes it`);
    return part;
  }
}
