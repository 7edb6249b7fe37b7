import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Waiting out a down dependency (libs/consumer-runtime): the state of each group's circuit breaker per dependency,
 * for `GET /admin/breakers` and `hookrail breakers`, and when an event's current run of failures began, so that the
 * long retry ceiling survives a restart or a rebalance.
 */
export class DependencyBreakers1764540000001 implements MigrationInterface {
  name = 'DependencyBreakers1764540000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "dependency_breakers" (
        "group" character varying(100) NOT NULL,
        "dependency" character varying(100) NOT NULL,
        "state" character varying(16) NOT NULL,
        "since" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_error" text,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_dependency_breakers" PRIMARY KEY ("group", "dependency")
      )`);
    await queryRunner.query(`ALTER TABLE "consumer_event_status" ADD "first_failed_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "consumer_event_status" DROP COLUMN "first_failed_at"`);
    await queryRunner.query(`DROP TABLE "dependency_breakers"`);
  }
}
