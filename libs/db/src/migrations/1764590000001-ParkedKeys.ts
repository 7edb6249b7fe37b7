import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-key order through failures (libs/dead-letters parking, used by the consumer runtime): the keys a group has
 * parked behind a dead letter, and the events parked behind them, kept as `dead_letters` rows in status `parked`
 * (arrival order in `park_seq`, the dead letter that blocks them in `blocked_by`). A parked row has no dead-letter
 * topic coordinates until it fails on its own, hence the `dlt_*` columns become nullable.
 */
export class ParkedKeys1764590000001 implements MigrationInterface {
  name = 'ParkedKeys1764590000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "parked_keys" (
        "group" character varying(100) NOT NULL,
        "key" text NOT NULL,
        "head_dead_letter_id" uuid NOT NULL,
        "head_event_id" character varying(300),
        "parked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_parked_keys" PRIMARY KEY ("group", "key")
      )`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ALTER COLUMN "dlt_topic" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ALTER COLUMN "dlt_partition" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ALTER COLUMN "dlt_offset" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ADD "park_seq" bigint`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ADD "blocked_by" uuid`);
    await queryRunner.query(`CREATE SEQUENCE "dead_letters_park_seq"`);
    await queryRunner.query(
      `CREATE INDEX "ix_dead_letters_parked" ON "dead_letters" ("group", "key", "park_seq") WHERE status = 'parked'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_dead_letters_parked"`);
    await queryRunner.query(`DROP SEQUENCE "dead_letters_park_seq"`);
    await queryRunner.query(`ALTER TABLE "dead_letters" DROP COLUMN "blocked_by"`);
    await queryRunner.query(`ALTER TABLE "dead_letters" DROP COLUMN "park_seq"`);
    await queryRunner.query(`DELETE FROM "dead_letters" WHERE "dlt_topic" IS NULL`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ALTER COLUMN "dlt_offset" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ALTER COLUMN "dlt_partition" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "dead_letters" ALTER COLUMN "dlt_topic" SET NOT NULL`);
    await queryRunner.query(`DROP TABLE "parked_keys"`);
  }
}
