import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rejected deliveries per source (the ingress): the newest few of each source, with why and what arrived, for
 * `GET /admin/sources/:name/rejections`, the console's Sources page and `hookrail sources`.
 */
export class SourceRejections1764632000001 implements MigrationInterface {
  name = 'SourceRejections1764632000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "source_rejections" (
        "id" BIGSERIAL NOT NULL,
        "source" character varying(64) NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "status" smallint NOT NULL,
        "reason" character varying(64) NOT NULL,
        "message" character varying(1000) NOT NULL,
        "path" character varying(300) NOT NULL,
        "headers" jsonb NOT NULL,
        "body_bytes" integer NOT NULL,
        "body_prefix" text NOT NULL,
        "details" jsonb,
        CONSTRAINT "pk_source_rejections" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_source_rejections_source" ON "source_rejections" ("source", "id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "source_rejections"`);
  }
}
