import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One word per state and one audit: an outbox row the broker rejected for good is *parked*, so its column is
 * `parked_at` (was `failed_at`); dead-letter replays and purges join every other operator action in `operator_audit`
 * (subject type `dead-letters`, the subject the group or `*`), their rows moved in the order they were recorded.
 */
export class OutboxParkedAndOneAudit1764640000001 implements MigrationInterface {
  name = 'OutboxParkedAndOneAudit1764640000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox" RENAME COLUMN "failed_at" TO "parked_at"`);
    await queryRunner.query(`ALTER INDEX "ix_outbox_failed" RENAME TO "ix_outbox_parked"`);
    await queryRunner.query(
      `INSERT INTO "operator_audit" ("at", "actor", "action", "subject_type", "subject_id", "details", "count", "affected_ids")
       SELECT "at", "actor", "action", 'dead-letters', coalesce("filter"->>'group', '*'), "filter", "count", "dead_letter_ids"::text[]
         FROM "dead_letter_audit" ORDER BY "id"`,
    );
    await queryRunner.query(`DROP TABLE "dead_letter_audit"`);
    await queryRunner.query(
      `CREATE INDEX "ix_operator_audit_affected_ids" ON "operator_audit" USING gin ("affected_ids")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
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
    await queryRunner.query(
      `CREATE INDEX "ix_dead_letter_audit_dead_letter_ids" ON "dead_letter_audit" USING gin ("dead_letter_ids")`,
    );
    await queryRunner.query(
      `INSERT INTO "dead_letter_audit" ("at", "actor", "action", "filter", "count", "dead_letter_ids")
       SELECT "at", "actor", "action", "details", "count", "affected_ids"::uuid[]
         FROM "operator_audit" WHERE "subject_type" = 'dead-letters' ORDER BY "id"`,
    );
    await queryRunner.query(`DELETE FROM "operator_audit" WHERE "subject_type" = 'dead-letters'`);
    await queryRunner.query(`DROP INDEX "ix_operator_audit_affected_ids"`);
    await queryRunner.query(`ALTER INDEX "ix_outbox_parked" RENAME TO "ix_outbox_failed"`);
    await queryRunner.query(`ALTER TABLE "outbox" RENAME COLUMN "parked_at" TO "failed_at"`);
  }
}
