import { Client } from 'pg';

/**
 * Advisory-lock key space of lease owners (first int4 of the two-key form; docs/architecture.md, Advisory locks, lists
 * every space). Each process that runs tasks holds one session-level lock in it per kind of task, on that kind's own
 * session (LeaseOwnerSession), keyed by the session's backend pid; its claims carry that pid as the lease owner
 * (`lease_owner`). When the process dies, Postgres ends the session and drops the lock with it, at once.
 */
export const LEASE_OWNER_LOCK_SPACE = 0x68720004;

/** On a lease-owner session: takes its lock and returns the key its claims carry (the session's backend pid). */
export async function takeLeaseOwnerLock(session: Client): Promise<number> {
  const { rows } = await session.query<{ owner: number }>(
    `SELECT pg_backend_pid() AS owner, pg_advisory_lock($1, pg_backend_pid())`,
    [LEASE_OWNER_LOCK_SPACE],
  );
  return rows[0].owner;
}

/**
 * The lease owners whose session is alive in this database: a subquery for a kind's takeover statement, which makes
 * due at once the tasks it holds whose `lease_owner` is not among them. Its one parameter, `$n`, is
 * LEASE_OWNER_LOCK_SPACE.
 */
export function liveLeaseOwners(n: number): string {
  return `SELECT objid::int AS owner FROM pg_locks
           WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::bigint = $${n}
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
}
