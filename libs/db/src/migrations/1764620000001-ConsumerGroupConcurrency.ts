import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How each consumer group works through its partitions (`batch` or `key`), as its process registered it: the console,
 * `GET /admin/consumer-groups` and `hookrail lag` show it beside the group.
 */
export class ConsumerGroupConcurrency1764620000001 implements MigrationInterface {
  name = 'ConsumerGroupConcurrency1764620000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "consumer_group_owners" ADD "concurrency" character varying(8) NOT NULL DEFAULT 'batch'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "consumer_group_owners" DROP COLUMN "concurrency"`);
  }
}
