import {
  AsyncApiDocument,
  CatalogDeployment,
  CatalogSummary,
  forDeployment,
  JsonSchema,
  namespacedSummary,
  readCatalogDirectory,
  schemaId,
  schemasOf,
} from '@app/contracts';
import path from 'node:path';
import { notFound } from '@app/http';

export interface CatalogIndex extends CatalogSummary {
  asyncapi: string;
  types: Array<CatalogSummary['types'][number] & { schema: string }>;
}

/**
 * The event catalogue as `npm run contracts:export` committed it (contracts/), read once at start: what downstream
 * teams may rely on, checked against the code by the contracts gate. Public, holds no secrets; the AsyncAPI
 * document names this deployment's brokers as its servers, and under a KAFKA_NAMESPACE both it and the summary name
 * the topics (and the document the group ids) as this deployment's processes use them.
 */
export class EventCatalog {
  private constructor(
    private readonly directory: string,
    private readonly asyncApi?: AsyncApiDocument,
    private readonly summary?: CatalogSummary,
    private readonly schemas: Readonly<Record<string, JsonSchema>> = {},
  ) {}

  /** An absent or empty directory gives an empty catalogue whose routes answer 404 saying so. */
  static load(directory: string, deployment: CatalogDeployment): EventCatalog {
    const files = readCatalogDirectory(path.resolve(directory));
    if (!files['asyncapi.json'] || !files['catalog.json']) return new EventCatalog(directory);
    const summary = JSON.parse(files['catalog.json']) as CatalogSummary;
    return new EventCatalog(
      directory,
      forDeployment(JSON.parse(files['asyncapi.json']) as AsyncApiDocument, deployment),
      deployment.namespace ? namespacedSummary(summary, deployment.namespace) : summary,
      schemasOf(files),
    );
  }

  /** The catalogue the admin app was configured with (CATALOG_DIR, this deployment's brokers and namespace). */
  static of(config: { CATALOG_DIR: string; KAFKA_BROKERS: string[]; KAFKA_NAMESPACE: string }): EventCatalog {
    return EventCatalog.load(config.CATALOG_DIR, { brokers: config.KAFKA_BROKERS, namespace: config.KAFKA_NAMESPACE });
  }

  /** Every event type with its description and JSON schema: what a customer may subscribe to (none without one). */
  eventTypes(): Array<{ type: string; description: string | null; schema: JsonSchema | null }> {
    return (this.summary?.types ?? []).map((entry) => ({
      type: entry.type,
      description: entry.description ?? null,
      schema: Object.prototype.hasOwnProperty.call(this.schemas, entry.type) ? this.schemas[entry.type] : null,
    }));
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

  /**
   * `type` may end in `.json`, so that tools resolving a schema file by name find it too, or be the schema's `$id`
   * (an event's `ce_dataschema`).
   */
  schema(type: string): JsonSchema {
    this.required(this.summary);
    const file = type.endsWith('.json') ? type.slice(0, -'.json'.length) : type;
    const name = file.startsWith(schemaId('')) ? file.slice(schemaId('').length) : file;
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
