import { MigrationInterface, QueryRunner } from 'typeorm';

/** The ledger service's table (apps/consumers/src/ledger). */
export class LedgerEntries1764470000002 implements MigrationInterface {
  name = 'LedgerEntries1764470000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ledger_entries" (
        "id" BIGSERIAL NOT NULL,
        "event_id" character varying(300) NOT NULL,
        "order_id" character varying(200) NOT NULL,
        "customer_id" character varying(200) NOT NULL,
        "kind" character varying(16) NOT NULL,
        "amount" bigint NOT NULL,
        "currency" character(3) NOT NULL,
        "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_ledger_entries" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "ix_ledger_entries_customer_currency" ON "ledger_entries" ("customer_id", "currency")`,
    );
    await queryRunner.query(`CREATE INDEX "ix_ledger_entries_order_id" ON "ledger_entries" ("order_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ledger_entries"`);
  }
}
