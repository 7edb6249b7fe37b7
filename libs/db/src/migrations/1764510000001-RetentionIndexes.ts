import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the retention jobs look up by age: accepted deliveries (ingress), sent notifications and finished agent tasks
 * (consumers). Partial where only finished rows are ever deleted, so the hot states pay nothing.
 */
export class RetentionIndexes1764510000001 implements MigrationInterface {
  name = 'RetentionIndexes1764510000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ix_inbound_events_received_at" ON "inbound_events" ("received_at")`);
    await queryRunner.query(
      `CREATE INDEX "ix_notifications_sent_at" ON "notifications" ("sent_at") WHERE status = 'sent'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_agent_tasks_finished_updated_at" ON "agent_tasks" ("updated_at") WHERE state IN ('done', 'dead')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_agent_tasks_finished_updated_at"`);
    await queryRunner.query(`DROP INDEX "ix_notifications_sent_at"`);
    await queryRunner.query(`DROP INDEX "ix_inbound_events_received_at"`);
  }
}
