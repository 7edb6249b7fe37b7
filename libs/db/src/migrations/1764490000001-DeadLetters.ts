import { MigrationInterface, QueryRunner } from 'typeorm';

/** The dead-letter store's index of `<group>.dlt` and the audit of operator actions (libs/dead-letters). */
export class DeadLetters1764490000001 implements MigrationInterface {
  name = 'DeadLetters1764490000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "dead_letters" (
        "id" uuid NOT NULL,
        "group" character varying(100) NOT NULL,
        "event_id" character varying(300),
        "type" character varying(200),
        "key" text,
        "original_topic" character varying(249) NOT NULL,
        "original_partition" integer NOT NULL,
        "original_offset" bigint NOT NULL,
        "dlt_topic" character varying(249) NOT NULL,
        "dlt_partition" integer NOT NULL,
        "dlt_offset" bigint NOT NULL,
        "replay_topic" character varying(249) NOT NULL,
        "payload" bytea,
        "headers" jsonb NOT NULL,
        "error_class" character varying(200) NOT NULL,
        "error_message" text NOT NULL,
        "error_stack" text,
        "attempts" integer NOT NULL,
        "first_failed_at" TIMESTAMP WITH TIME ZONE,
        "dead_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "status" character varying(16) NOT NULL DEFAULT 'dead',
        "replay_count" integer NOT NULL DEFAULT '0',
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "replayed_at" TIMESTAMP WITH TIME ZONE,
        "resolved_at" TIMESTAMP WITH TIME ZONE,
        "purged_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "pk_dead_letters" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_dead_letters_original" ON "dead_letters" ("group", "original_topic", "original_partition", "original_offset")`,
    );
    await queryRunner.query(`CREATE INDEX "ix_dead_letters_status_dead_at" ON "dead_letters" ("status", "dead_at")`);
    await queryRunner.query(`CREATE INDEX "ix_dead_letters_group_event_id" ON "dead_letters" ("group", "event_id")`);
    await queryRunner.query(`
      CREATE TABLE "dead_letter_audit" (
        "id" BIGSERIAL NOT NULL,
        "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "actor" character varying(200) NOT NULL,
        "action" character varying(16) NOT NULL,
        "filter" jsonb NOT NULL,
        "count" integer NOT NULL,
        "dead_letter_ids" uuid array NOT NULL,
        CONSTRAINT "pk_dead_letter_audit" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_dead_letter_audit_at" ON "dead_letter_audit" ("at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "dead_letter_audit"`);
    await queryRunner.query(`DROP TABLE "dead_letters"`);
  }
}
