import { MigrationInterface, QueryRunner } from 'typeorm';

/** The notifier's table (apps/consumers/src/notifier). */
export class Notifications1764500000001 implements MigrationInterface {
  name = 'Notifications1764500000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "notifications" (
        "id" BIGSERIAL NOT NULL,
        "event_id" character varying(300) NOT NULL,
        "order_id" character varying(200) NOT NULL,
        "recipient" character varying(320) NOT NULL,
        "subject" character varying(300) NOT NULL,
        "status" character varying(16) NOT NULL,
        "attempts" integer NOT NULL DEFAULT 0,
        "provider_message_id" character varying(200),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "sent_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "uq_notifications_event_id" UNIQUE ("event_id"),
        CONSTRAINT "pk_notifications" PRIMARY KEY ("id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "notifications"`);
  }
}
