import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sagas retry a failing compensation on a policy (`refusals`, `failing_since`, `backing_off`) and can be cancelled
 * (`cancellation`; state `cancelled`, which the state column's width already holds).
 */
export class SagaRetriesAndCancellation1764633000001 implements MigrationInterface {
  name = 'SagaRetriesAndCancellation1764633000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "sagas"
        ADD "refusals" integer NOT NULL DEFAULT 0,
        ADD "failing_since" TIMESTAMP WITH TIME ZONE,
        ADD "backing_off" boolean NOT NULL DEFAULT false,
        ADD "cancellation" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "sagas"
        DROP COLUMN "cancellation",
        DROP COLUMN "backing_off",
        DROP COLUMN "failing_since",
        DROP COLUMN "refusals"`);
  }
}
