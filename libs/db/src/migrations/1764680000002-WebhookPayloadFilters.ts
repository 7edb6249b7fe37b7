import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fan-out's payload filter check: whether every filter of an endpoint (`[{path, equals}]`, `path` a JSON Pointer,
 * RFC 6901) holds on an event's data, i.e. the JSON value at `path` equals `equals` (a path that is absent holds
 * nothing, not even `null`). Immutable, so that the planner may inline it.
 */
export class WebhookPayloadFilters1764680000002 implements MigrationInterface {
  name = 'WebhookPayloadFilters1764680000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    // `~1` is `/` and `~0` is `~`, unescaped in that order; `/` alone is the key "" (hence regexp_split_to_array).
    await queryRunner.query(`
      CREATE FUNCTION webhook_payload_matches(data jsonb, filters jsonb) RETURNS boolean
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
          SELECT NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements(filters) AS f(filter)
             WHERE data #> ARRAY(SELECT replace(replace(step, '~1', '/'), '~0', '~')
                                   FROM unnest(regexp_split_to_array(substr(f.filter ->> 'path', 2), '/'))
                                        WITH ORDINALITY AS s(step, position)
                                  ORDER BY s.position)
                   IS DISTINCT FROM f.filter -> 'equals')
        $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION webhook_payload_matches(jsonb, jsonb)`);
  }
}
