import { MigrationInterface, QueryRunner } from 'typeorm';

/** The agent service's task table (apps/consumers/src/agent): pending → claimed → done | failed → dead. */
export class AgentTasks1764500000002 implements MigrationInterface {
  name = 'AgentTasks1764500000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "agent_tasks" (
        "id" BIGSERIAL NOT NULL,
        "event_id" character varying(300) NOT NULL,
        "event_type" character varying(300) NOT NULL,
        "event" jsonb NOT NULL,
        "source_topic" character varying(300) NOT NULL,
        "source_partition" integer NOT NULL,
        "source_offset" character varying(30) NOT NULL,
        "replay_count" integer NOT NULL DEFAULT 0,
        "state" character varying(16) NOT NULL,
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "claimed_at" TIMESTAMP WITH TIME ZONE,
        "lease_until" TIMESTAMP WITH TIME ZONE,
        "claimed_by" character varying(200),
        "fencing_token" bigint NOT NULL DEFAULT 0,
        "result" jsonb,
        "last_error_class" character varying(200),
        "last_error" text,
        "first_failed_at" TIMESTAMP WITH TIME ZONE,
        "dead_lettered_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_agent_tasks_event_id" UNIQUE ("event_id"),
        CONSTRAINT "pk_agent_tasks" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_agent_tasks_next_attempt_at" ON "agent_tasks" ("next_attempt_at")`);
    await queryRunner.query(
      `CREATE INDEX "ix_agent_tasks_state_dead_lettered_at" ON "agent_tasks" ("state", "dead_lettered_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "agent_tasks"`);
  }
}
