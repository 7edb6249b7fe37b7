import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The agent waits out a down model (apps/consumers/src/agent): which dependency a task's last failure was waiting on,
 * and how many of its attempts ended that way (they do not spend `AGENT_MAX_ATTEMPTS`; the retry ceiling counts from
 * `first_failed_at`). The partial index serves the claims of tasks whose ceiling is spent while the breaker is open.
 */
export class AgentTaskDependencyWaits1764541000001 implements MigrationInterface {
  name = 'AgentTaskDependencyWaits1764541000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_tasks" ADD "last_error_dependency" character varying(100)`);
    await queryRunner.query(`ALTER TABLE "agent_tasks" ADD "dependency_failures" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(
      `CREATE INDEX "ix_agent_tasks_failed_first_failed_at" ON "agent_tasks" ("first_failed_at") WHERE state = 'failed'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_agent_tasks_failed_first_failed_at"`);
    await queryRunner.query(`ALTER TABLE "agent_tasks" DROP COLUMN "dependency_failures"`);
    await queryRunner.query(`ALTER TABLE "agent_tasks" DROP COLUMN "last_error_dependency"`);
  }
}
