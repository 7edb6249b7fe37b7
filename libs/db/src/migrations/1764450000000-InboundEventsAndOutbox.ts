import { MigrationInterface, QueryRunner } from 'typeorm';

export class InboundEventsAndOutbox1764450000000 implements MigrationInterface {
  name = 'InboundEventsAndOutbox1764450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "inbound_events" (
        "id" uuid NOT NULL,
        "source" character varying(100) NOT NULL,
        "sender_event_id" character varying(300) NOT NULL,
        "type" character varying(300) NOT NULL,
        "aggregate_id" character varying(300) NOT NULL,
        "payload_hash" character(64) NOT NULL,
        "payload" jsonb NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_inbound_events_source_sender_event_id" UNIQUE ("source", "sender_event_id"),
        CONSTRAINT "pk_inbound_events" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "outbox" (
        "id" BIGSERIAL NOT NULL,
        "lane" smallint NOT NULL,
        "event_id" uuid NOT NULL,
        "topic" character varying(249) NOT NULL,
        "key" character varying(300) NOT NULL,
        "value" text NOT NULL,
        "headers" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "published_at" TIMESTAMP WITH TIME ZONE,
        "attempts" integer NOT NULL DEFAULT '0',
        "last_error" text,
        CONSTRAINT "pk_outbox" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_outbox_unpublished" ON "outbox" ("lane", "id") WHERE published_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_outbox_published_at" ON "outbox" ("published_at") WHERE published_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "outbox"`);
    await queryRunner.query(`DROP TABLE "inbound_events"`);
  }
}
