import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The two task tables (`agent_tasks`, `webhook_deliveries`) take one shape for the columns every task has (TaskRow,
 * libs/tasks): a delivery's source topic as long as a task's (widening a varchar is a catalog change, no rewrite),
 * and an agent task's state `pending` unless said otherwise, as a delivery's is. No row changes.
 */
export class TaskTablesOneShape1764650000001 implements MigrationInterface {
  name = 'TaskTablesOneShape1764650000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "source_topic" TYPE character varying(300)`);
    await queryRunner.query(`ALTER TABLE "agent_tasks" ALTER COLUMN "state" SET DEFAULT 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_tasks" ALTER COLUMN "state" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ALTER COLUMN "source_topic" TYPE character varying(249)`);
  }
}
