import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks (libs/webhooks, apps/consumers/src/webhooks): endpoints and their signing secrets, one delivery
 * row per event and endpoint, every attempt; and the operator audit of the changes made through /admin and the CLI.
 */
export class OutboundWebhooks1764560000001 implements MigrationInterface {
  name = 'OutboundWebhooks1764560000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhook_endpoints" (
        "id" uuid NOT NULL,
        "url" character varying(2000) NOT NULL,
        "description" character varying(500),
        "event_types" character varying(200) array NOT NULL,
        "state" character varying(16) NOT NULL DEFAULT 'enabled',
        "disabled_reason" text,
        "disabled_at" TIMESTAMP WITH TIME ZONE,
        "ordered" boolean NOT NULL DEFAULT false,
        "rate_limit_per_second" integer,
        "rate_tokens" double precision NOT NULL DEFAULT '0',
        "rate_refilled_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "max_in_flight" integer,
        "failing_since" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_webhook_endpoints" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "webhook_endpoint_secrets" (
        "id" uuid NOT NULL,
        "endpoint_id" uuid NOT NULL,
        "secret" character varying(100) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "expires_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "pk_webhook_endpoint_secrets" PRIMARY KEY ("id"),
        CONSTRAINT "fk_webhook_endpoint_secrets_endpoint" FOREIGN KEY ("endpoint_id")
          REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_endpoint_secrets_endpoint_id" ON "webhook_endpoint_secrets" ("endpoint_id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "webhook_deliveries" (
        "id" BIGSERIAL NOT NULL,
        "endpoint_id" uuid NOT NULL,
        "event_id" character varying(300) NOT NULL,
        "event_type" character varying(300) NOT NULL,
        "event_source" character varying(1000) NOT NULL,
        "event_time" TIMESTAMP WITH TIME ZONE NOT NULL,
        "subject" character varying(300),
        "ordering_key" character varying(300) NOT NULL,
        "ordered" boolean NOT NULL DEFAULT false,
        "payload" text NOT NULL,
        "source_topic" character varying(249) NOT NULL,
        "source_partition" integer NOT NULL,
        "source_offset" character varying(30) NOT NULL,
        "state" character varying(16) NOT NULL DEFAULT 'pending',
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "lease_until" TIMESTAMP WITH TIME ZONE,
        "claimed_by" character varying(200),
        "fencing_token" bigint NOT NULL DEFAULT 0,
        "last_attempt_at" TIMESTAMP WITH TIME ZONE,
        "last_status" integer,
        "last_error" text,
        "delivered_at" TIMESTAMP WITH TIME ZONE,
        "failed_at" TIMESTAMP WITH TIME ZONE,
        "dead_lettered_at" TIMESTAMP WITH TIME ZONE,
        "replay_count" integer NOT NULL DEFAULT 0,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "uq_webhook_deliveries_event_endpoint" UNIQUE ("event_id", "endpoint_id"),
        CONSTRAINT "pk_webhook_deliveries" PRIMARY KEY ("id"),
        CONSTRAINT "fk_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id")
          REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    // What a claim probes per endpoint, what an ordered endpoint's head-of-key check reads (ordered rows only), the live leases the
    // per-endpoint cap counts: partial, so a finished delivery leaves them. The listing and the replay-since window
    // read by endpoint and creation time; the dead-letter flush finds failures not yet on webhooks.dlt.
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at") WHERE state IN ('pending', 'sending')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_key" ON "webhook_deliveries" ("endpoint_id", "ordering_key", "id") WHERE ordered AND state IN ('pending', 'sending')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_sending" ON "webhook_deliveries" ("endpoint_id", "lease_until") WHERE state = 'sending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_endpoint_created" ON "webhook_deliveries" ("endpoint_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_deliveries_to_dead_letter" ON "webhook_deliveries" ("id") WHERE state = 'failed' AND dead_lettered_at IS NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE "webhook_delivery_attempts" (
        "id" BIGSERIAL NOT NULL,
        "delivery_id" bigint NOT NULL,
        "attempt" integer NOT NULL,
        "started_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "latency_ms" integer NOT NULL,
        "status" integer,
        "response_body" text,
        "error" text,
        "worker" character varying(200) NOT NULL,
        CONSTRAINT "pk_webhook_delivery_attempts" PRIMARY KEY ("id"),
        CONSTRAINT "fk_webhook_delivery_attempts_delivery" FOREIGN KEY ("delivery_id")
          REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_delivery_attempts_delivery_id" ON "webhook_delivery_attempts" ("delivery_id", "id")`,
    );
    await queryRunner.query(`
      CREATE TABLE "operator_audit" (
        "id" BIGSERIAL NOT NULL,
        "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "actor" character varying(200) NOT NULL,
        "action" character varying(40) NOT NULL,
        "subject_type" character varying(40) NOT NULL,
        "subject_id" character varying(200) NOT NULL,
        "details" jsonb NOT NULL,
        "count" integer NOT NULL,
        "affected_ids" text array NOT NULL DEFAULT '{}',
        CONSTRAINT "pk_operator_audit" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_operator_audit_subject" ON "operator_audit" ("subject_type", "subject_id", "at")`,
    );
    await queryRunner.query(`CREATE INDEX "ix_operator_audit_at" ON "operator_audit" ("at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "operator_audit"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery_attempts"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoint_secrets"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
