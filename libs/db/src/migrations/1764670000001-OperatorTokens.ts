import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operator tokens (libs/access): one row per named bearer token of the operator API, with its role, the consumer
 * groups it is limited to and, for `status` tokens, the event sources whose status it may read. Only the token's
 * sha256 digest is kept. A token is revoked, never deleted, so that the audit's names keep their meaning.
 */
export class OperatorTokens1764670000001 implements MigrationInterface {
  name = 'OperatorTokens1764670000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "operator_tokens" (
        "id" BIGSERIAL NOT NULL,
        "name" text NOT NULL,
        "role" text NOT NULL,
        "groups" text array,
        "sources" text array,
        "token_hash" text NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "created_by" text NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE,
        "revoked_at" TIMESTAMP WITH TIME ZONE,
        "revoked_by" text,
        CONSTRAINT "pk_operator_tokens" PRIMARY KEY ("id"),
        CONSTRAINT "uq_operator_tokens_name" UNIQUE ("name"),
        CONSTRAINT "uq_operator_tokens_token_hash" UNIQUE ("token_hash"),
        CONSTRAINT "ck_operator_tokens_role" CHECK ("role" IN ('viewer', 'operator', 'admin', 'status')),
        CONSTRAINT "ck_operator_tokens_groups" CHECK ("groups" IS NULL OR "role" NOT IN ('admin', 'status')),
        CONSTRAINT "ck_operator_tokens_sources" CHECK ("sources" IS NULL OR "role" = 'status')
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "operator_tokens"`);
  }
}
