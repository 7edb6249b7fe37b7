import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The claim takes an endpoint's due deliveries by `next_attempt_at`, then by id, so that deliveries due at the same
 * moment (an endpoint enabled again, a replay of a window) go in the order their events were consumed. Built
 * CONCURRENTLY, outside a transaction, so that deliveries keep being written and claimed while it builds.
 */
export class WebhookDueInOrderIndex1764635000002 implements MigrationInterface {
  name = 'WebhookDueInOrderIndex1764635000002';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "ix_webhook_deliveries_due_in_order" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at", "id") WHERE state IN ('pending', 'sending')`,
    );
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_webhook_deliveries_due"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "ix_webhook_deliveries_due" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at") WHERE state IN ('pending', 'sending')`,
    );
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "ix_webhook_deliveries_due_in_order"`);
  }
}
