import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery keeps the id the producer gave its event (`POST /events`), which it sends as the CloudEvents `ce-id`
 * beside hookrail's own (`event_id`: `webhook-id` and `ce-hookrailid`). Null for an event hookrail made itself, and
 * for every delivery written before: their `ce-id` is `event_id`. Nullable, no default: adding it rewrites nothing.
 */
export class WebhookDeliveryProducerId1764690000001 implements MigrationInterface {
  name = 'WebhookDeliveryProducerId1764690000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD COLUMN "producer_event_id" character varying(300)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "producer_event_id"`);
  }
}
