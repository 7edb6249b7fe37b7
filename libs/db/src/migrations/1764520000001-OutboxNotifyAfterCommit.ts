import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox trigger's NOTIFY ran inside every inserting transaction, and Postgres serialises the commits of
 * notifying transactions through one database-wide lock held until their WAL is flushed. Writers now notify after
 * their commit (OutboxNotifier, libs/outbox), so the trigger goes.
 */
export class OutboxNotifyAfterCommit1764520000001 implements MigrationInterface {
  name = 'OutboxNotifyAfterCommit1764520000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER outbox_notify ON "outbox"`);
    await queryRunner.query(`DROP FUNCTION outbox_notify()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('hookrail_outbox', '');
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER outbox_notify AFTER INSERT ON "outbox" FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`,
    );
  }
}
