import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operations at a glance: the schedules of scheduled jobs (the dead man's switch), the owners of consumer groups, the
 * console's chart samples, what an event's trail shows of its delivery (signature scheme, headers without secrets),
 * and a lookup of the replays that touched a dead letter.
 */
export class OperationsSchema1764570000001 implements MigrationInterface {
  name = 'OperationsSchema1764570000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "job_schedules" (
        "name" character varying(100) NOT NULL,
        "every_ms" integer NOT NULL,
        "grace" double precision NOT NULL,
        "app" character varying(100) NOT NULL,
        "first_registered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "registered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_job_schedules" PRIMARY KEY ("name")
      )`);
    await queryRunner.query(`
      CREATE TABLE "consumer_group_owners" (
        "group" character varying(100) NOT NULL,
        "team" character varying(100) NOT NULL,
        "contact" character varying(300) NOT NULL,
        "topics" character varying(249) array NOT NULL,
        "registered_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_consumer_group_owners" PRIMARY KEY ("group")
      )`);
    await queryRunner.query(`
      CREATE TABLE "ops_samples" (
        "metric" character varying(60) NOT NULL,
        "series" character varying(200) NOT NULL,
        "at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "value" double precision NOT NULL,
        CONSTRAINT "pk_ops_samples" PRIMARY KEY ("metric", "series", "at")
      )`);
    await queryRunner.query(`ALTER TABLE "inbound_events" ADD "scheme" character varying(40)`);
    await queryRunner.query(`ALTER TABLE "inbound_events" ADD "headers" jsonb`);
    await queryRunner.query(
      `CREATE INDEX "ix_dead_letter_audit_dead_letter_ids" ON "dead_letter_audit" USING gin ("dead_letter_ids")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_dead_letter_audit_dead_letter_ids"`);
    await queryRunner.query(`ALTER TABLE "inbound_events" DROP COLUMN "headers"`);
    await queryRunner.query(`ALTER TABLE "inbound_events" DROP COLUMN "scheme"`);
    await queryRunner.query(`DROP TABLE "ops_samples"`);
    await queryRunner.query(`DROP TABLE "consumer_group_owners"`);
    await queryRunner.query(`DROP TABLE "job_schedules"`);
  }
}
