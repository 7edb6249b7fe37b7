import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fulfilment saga's participants (apps/consumers): inventory's `stock` and `stock_reservations`, payments'
 * `payments`, shipping's `shipments`. Each is keyed by the saga, which makes its commands idempotent per saga.
 */
export class SagaParticipants1764550000002 implements MigrationInterface {
  name = 'SagaParticipants1764550000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "stock" (
        "sku" character varying(200) NOT NULL,
        "available" integer NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_stock" PRIMARY KEY ("sku")
      )`);
    await queryRunner.query(`
      CREATE TABLE "stock_reservations" (
        "saga_id" uuid NOT NULL,
        "order_id" character varying(200) NOT NULL,
        "status" character varying(16) NOT NULL,
        "lines" jsonb NOT NULL,
        "reason" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_stock_reservations" PRIMARY KEY ("saga_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "payments" (
        "saga_id" uuid NOT NULL,
        "order_id" character varying(200) NOT NULL,
        "amount" bigint NOT NULL,
        "currency" character(3) NOT NULL,
        "status" character varying(16) NOT NULL,
        "charge_key" character varying(300),
        "charge_id" character varying(200),
        "charge_calls" integer NOT NULL DEFAULT 0,
        "refund_key" character varying(300),
        "refund_id" character varying(200),
        "refunded_amount" bigint,
        "refund_calls" integer NOT NULL DEFAULT 0,
        "reason" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_payments" PRIMARY KEY ("saga_id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "shipments" (
        "saga_id" uuid NOT NULL,
        "order_id" character varying(200) NOT NULL,
        "status" character varying(16) NOT NULL,
        "create_key" character varying(300),
        "shipment_id" character varying(200),
        "create_calls" integer NOT NULL DEFAULT 0,
        "cancel_key" character varying(300),
        "cancel_calls" integer NOT NULL DEFAULT 0,
        "reason" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_shipments" PRIMARY KEY ("saga_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "shipments"`);
    await queryRunner.query(`DROP TABLE "payments"`);
    await queryRunner.query(`DROP TABLE "stock_reservations"`);
    await queryRunner.query(`DROP TABLE "stock"`);
  }
}
