import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the relay needs beyond the outbox table: a parked state for rows the broker rejects for good, one NOTIFY per
 * inserting transaction (statement-level trigger; Postgres folds identical notifications of one transaction into
 * one), a lookup by event id for the status API, and the heartbeats of scheduled jobs.
 */
export class RelayLanesAndJobs1764460000000 implements MigrationInterface {
  name = 'RelayLanesAndJobs1764460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox" ADD "failed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "ix_outbox_failed" ON "outbox" ("lane", "key") WHERE failed_at IS NOT NULL AND published_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX "ix_outbox_event_id" ON "outbox" ("event_id")`);
    await queryRunner.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('hookrail_outbox', '');
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER outbox_notify AFTER INSERT ON "outbox" FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`,
    );
    await queryRunner.query(`
      CREATE TABLE "job_heartbeats" (
        "name" character varying(100) NOT NULL,
        "last_started_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_finished_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_duration_ms" integer NOT NULL,
        "last_affected" bigint NOT NULL,
        "last_error" text,
        "last_succeeded_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "pk_job_heartbeats" PRIMARY KEY ("name")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_heartbeats"`);
    await queryRunner.query(`DROP TRIGGER outbox_notify ON "outbox"`);
    await queryRunner.query(`DROP FUNCTION outbox_notify()`);
    await queryRunner.query(`DROP INDEX "ix_outbox_event_id"`);
    await queryRunner.query(`DROP INDEX "ix_outbox_failed"`);
    await queryRunner.query(`ALTER TABLE "outbox" DROP COLUMN "failed_at"`);
  }
}
