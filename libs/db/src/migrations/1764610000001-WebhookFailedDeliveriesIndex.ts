import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's failed deliveries: counted for every endpoint the console and `GET /admin/webhook-endpoints` list, and
 * what "replay failed since" selects. Partial, so it holds only the few deliveries that spent their attempts. Built
 * CONCURRENTLY, outside a transaction, so that deliveries keep being written while it builds.
 */
export class WebhookFailedDeliveriesIndex1764610000001 implements MigrationInterface {
  name = 'WebhookFailedDeliveriesIndex1764610000001';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "ix_webhook_deliveries_failed" ON "webhook_deliveries" ("endpoint_id", "created_at") WHERE state = 'failed'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_webhook_deliveries_failed"`);
  }
}
