import { AsyncApiDocument, JsonSchema } from '@app/contracts';
import { Controller, Get, Header, Param } from '@nestjs/common';
import { CatalogIndex, EventCatalog } from './event-catalog';

/** The event catalogue for downstream teams: public, read-only, no secrets in it. */
@Controller('catalog')
export class CatalogController {
  constructor(private readonly catalog: EventCatalog) {}

  /** Topics, event types and versions, the consumer groups on each topic and their owners. */
  @Get()
  index(): CatalogIndex {
    return this.catalog.index();
  }

  @Get('asyncapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  asyncApi(): AsyncApiDocument {
    return this.catalog.asyncApiDocument();
  }

  @Get('schemas/:type')
  @Header('content-type', 'application/schema+json')
  schema(@Param('type') type: string): JsonSchema {
    return this.catalog.schema(type);
  }
}
