import { MigrationInterface, QueryRunner } from 'typeorm';

/** The consumer runtime's tables: dedupe rows and per-group failure status (libs/consumer-runtime). */
export class ConsumerRuntime1764470000001 implements MigrationInterface {
  name = 'ConsumerRuntime1764470000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "processed_events" (
        "group" character varying(100) NOT NULL,
        "event_id" character varying(300) NOT NULL,
        "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_processed_events" PRIMARY KEY ("group", "event_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_processed_events_event_id" ON "processed_events" ("event_id")`);
    await queryRunner.query(`CREATE INDEX "ix_processed_events_processed_at" ON "processed_events" ("processed_at")`);
    await queryRunner.query(`
      CREATE TABLE "consumer_event_status" (
        "group" character varying(100) NOT NULL,
        "event_id" character varying(300) NOT NULL,
        "status" character varying(16) NOT NULL,
        "attempts" integer NOT NULL,
        "last_error" text,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_consumer_event_status" PRIMARY KEY ("group", "event_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_consumer_event_status_event_id" ON "consumer_event_status" ("event_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "consumer_event_status"`);
    await queryRunner.query(`DROP TABLE "processed_events"`);
  }
}
