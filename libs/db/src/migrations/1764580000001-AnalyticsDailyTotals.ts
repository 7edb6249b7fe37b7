import { MigrationInterface, QueryRunner } from 'typeorm';

/** The analytics group's table (apps/consumers/src/analytics): events per day and type. */
export class AnalyticsDailyTotals1764580000001 implements MigrationInterface {
  name = 'AnalyticsDailyTotals1764580000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "analytics_daily_totals" (
        "day" date NOT NULL,
        "event_type" character varying(200) NOT NULL,
        "events" bigint NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "pk_analytics_daily_totals" PRIMARY KEY ("day", "event_type")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "analytics_daily_totals"`);
  }
}
