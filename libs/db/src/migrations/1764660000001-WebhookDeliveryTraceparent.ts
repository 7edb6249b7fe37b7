import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery keeps the W3C `traceparent` of the `webhooks` group's span that wrote it (when the consumers trace), so
 * that each attempt's client span joins the event's trace. Nullable, no default: adding it rewrites nothing.
 */
export class WebhookDeliveryTraceparent1764660000001 implements MigrationInterface {
  name = 'WebhookDeliveryTraceparent1764660000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD COLUMN "traceparent" character varying(55)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "traceparent"`);
  }
}
