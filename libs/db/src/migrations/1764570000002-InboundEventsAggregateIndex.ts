import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Finds an aggregate's events (`GET /admin/events/<aggregate id>`, `hookrail trace`). Built CONCURRENTLY, outside a
 * transaction, so that an installation with millions of events keeps accepting webhooks while it builds.
 */
export class InboundEventsAggregateIndex1764570000002 implements MigrationInterface {
  name = 'InboundEventsAggregateIndex1764570000002';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "ix_inbound_events_aggregate_id" ON "inbound_events" ("aggregate_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_inbound_events_aggregate_id"`);
  }
}
