import { MigrationInterface, QueryRunner } from 'typeorm';

/** The saga coordinator's tables (libs/saga): one row per saga instance, one history row per transition. */
export class Sagas1764550000001 implements MigrationInterface {
  name = 'Sagas1764550000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "sagas" (
        "id" uuid NOT NULL,
        "type" character varying(100) NOT NULL,
        "correlation_id" character varying(300) NOT NULL,
        "start_event_id" character varying(300) NOT NULL,
        "state" character varying(16) NOT NULL,
        "step" smallint NOT NULL,
        "step_name" character varying(100) NOT NULL,
        "attempts" integer NOT NULL,
        "deadline" TIMESTAMP WITH TIME ZONE,
        "version" integer NOT NULL,
        "data" jsonb NOT NULL,
        "results" jsonb NOT NULL DEFAULT '{}',
        "failure" text,
        "last_error" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "ended_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "uq_sagas_type_correlation_id" UNIQUE ("type", "correlation_id"),
        CONSTRAINT "pk_sagas" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_sagas_deadline" ON "sagas" ("deadline") WHERE deadline IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "ix_sagas_start_event_id" ON "sagas" ("start_event_id")`);
    await queryRunner.query(`CREATE INDEX "ix_sagas_state_updated_at" ON "sagas" ("state", "updated_at")`);
    await queryRunner.query(`CREATE INDEX "ix_sagas_ended_at" ON "sagas" ("ended_at") WHERE ended_at IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE "saga_steps" (
        "saga_id" uuid NOT NULL,
        "seq" integer NOT NULL,
        "step" character varying(100) NOT NULL,
        "phase" character varying(16) NOT NULL,
        "event" character varying(32) NOT NULL,
        "state" character varying(16) NOT NULL,
        "cause_type" character varying(300),
        "cause_id" character varying(300),
        "sent_type" character varying(300),
        "sent_id" character varying(300),
        "detail" text,
        "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "pk_saga_steps" PRIMARY KEY ("saga_id", "seq")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "saga_steps"`);
    await queryRunner.query(`DROP TABLE "sagas"`);
  }
}
