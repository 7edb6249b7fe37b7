import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound deliveries name the database session of the process that claimed them (`lease_owner`), so that another
 * process takes them over once that session is gone instead of at the lease's end; a replay asked while an attempt is
 * in flight waits on the row (`replay_requested`). Every attempt is logged when it starts: its row carries the claim's
 * fencing token (unique per delivery) and has no latency until it ends.
 */
export class WebhookLeaseOwnersAndReplays1764635000001 implements MigrationInterface {
  name = 'WebhookLeaseOwnersAndReplays1764635000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "webhook_deliveries"
        ADD "lease_owner" integer,
        ADD "replay_requested" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`
      ALTER TABLE "webhook_delivery_attempts"
        ADD "fencing_token" bigint,
        ALTER COLUMN "latency_ms" DROP NOT NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_webhook_delivery_attempts_claim" ON "webhook_delivery_attempts" ("delivery_id", "fencing_token")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "uq_webhook_delivery_attempts_claim"`);
    await queryRunner.query(`UPDATE "webhook_delivery_attempts" SET "latency_ms" = 0 WHERE "latency_ms" IS NULL`);
    await queryRunner.query(`
      ALTER TABLE "webhook_delivery_attempts"
        ALTER COLUMN "latency_ms" SET NOT NULL,
        DROP COLUMN "fencing_token"`);
    await queryRunner.query(`
      ALTER TABLE "webhook_deliveries"
        DROP COLUMN "replay_requested",
        DROP COLUMN "lease_owner"`);
  }
}
