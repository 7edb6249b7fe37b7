import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Customers of outbound webhooks (Svix's applications): each has the operator's own id for it (`uid`, what events
 * carry in their `customerid` attribute) and owns endpoints; an endpoint with no customer is the operator's and
 * receives every customer's events. Endpoints may filter on the payload. Customer tokens (an API token, a single-use
 * portal link, the portal session it opens) are kept as sha256 digests, revoked rather than deleted.
 */
export class WebhookCustomers1764680000001 implements MigrationInterface {
  name = 'WebhookCustomers1764680000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhook_customers" (
        "id" uuid NOT NULL,
        "uid" character varying(200) NOT NULL,
        "name" character varying(200) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_webhook_customers" PRIMARY KEY ("id"),
        CONSTRAINT "uq_webhook_customers_uid" UNIQUE ("uid")
      )`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "customer_id" uuid`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" ADD "payload_filters" jsonb`);
    await queryRunner.query(`
      ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "fk_webhook_endpoints_customer" FOREIGN KEY ("customer_id")
        REFERENCES "webhook_customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    // The fan-out reads the operator's endpoints and one customer's, never the others'.
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_endpoints_customer" ON "webhook_endpoints" ("customer_id") WHERE customer_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_endpoints_operator" ON "webhook_endpoints" ("id") WHERE customer_id IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE "customer_tokens" (
        "id" BIGSERIAL NOT NULL,
        "customer_id" uuid NOT NULL,
        "kind" character varying(16) NOT NULL,
        "name" character varying(100) NOT NULL,
        "token_hash" character varying(64) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "created_by" character varying(200) NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "used_at" TIMESTAMP WITH TIME ZONE,
        "revoked_at" TIMESTAMP WITH TIME ZONE,
        "revoked_by" character varying(200),
        CONSTRAINT "pk_customer_tokens" PRIMARY KEY ("id"),
        CONSTRAINT "uq_customer_tokens_token_hash" UNIQUE ("token_hash"),
        CONSTRAINT "ck_customer_tokens_kind" CHECK ("kind" IN ('api', 'portal-link', 'session')),
        CONSTRAINT "fk_customer_tokens_customer" FOREIGN KEY ("customer_id")
          REFERENCES "webhook_customers"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await queryRunner.query(`CREATE INDEX "ix_customer_tokens_customer" ON "customer_tokens" ("customer_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "customer_tokens"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "fk_webhook_endpoints_customer"`);
    await queryRunner.query(`DROP INDEX "ix_webhook_endpoints_operator"`);
    await queryRunner.query(`DROP INDEX "ix_webhook_endpoints_customer"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "payload_filters"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "customer_id"`);
    await queryRunner.query(`DROP TABLE "webhook_customers"`);
  }
}
