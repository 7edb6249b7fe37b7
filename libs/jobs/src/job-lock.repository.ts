import { QueryRows } from '@app/db';

/** Advisory-lock key space of scheduled jobs (first int4 of the two-key form); docs/architecture.md, Advisory locks. */
export const JOB_LOCK_SPACE = 0x68720003;

/** A stable int4 for a job name (FNV-1a, signed), the second key of the job's advisory lock. */
export function jobLockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** Session-level advisory lock statements; `rows` must run on one connection (a QueryRunner's, a pool client's). */
export class JobLockRepository {
  constructor(private readonly rows: QueryRows) {}

  async tryLock(name: string): Promise<boolean> {
    const [row] = await this.rows<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [
      JOB_LOCK_SPACE,
      jobLockKey(name),
    ]);
    return row.locked === true;
  }

  async unlock(name: string): Promise<void> {
    await this.rows(`SELECT pg_advisory_unlock($1, $2)`, [JOB_LOCK_SPACE, jobLockKey(name)]);
  }
}
