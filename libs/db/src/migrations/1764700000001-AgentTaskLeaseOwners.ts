import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent tasks name the database session of the process that claimed them (`lease_owner`), as outbound deliveries
 * do: one lease model for every kind of task, so that another process takes a task over once that session is gone
 * instead of at the lease's end.
 */
export class AgentTaskLeaseOwners1764700000001 implements MigrationInterface {
  name = 'AgentTaskLeaseOwners1764700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_tasks" ADD "lease_owner" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_tasks" DROP COLUMN "lease_owner"`);
  }
}
