import { poolQuery } from '@app/db';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Advisory-lock key space of the delivery workers' lease owners (first int4 of the two-key form; docs/architecture.md,
 * Advisory locks, lists every space). Each process with delivery workers holds one session-level lock in it on its
 * workers' own session, keyed by that session's backend pid, and its claims carry that pid as their lease owner. When
 * the process dies, Postgres ends the session and drops the lock with it, at once.
 */
export const LEASE_OWNER_LOCK_SPACE = 0x68720004;

/** On the workers' session: takes its lock and returns the key its claims carry (the session's backend pid). */
export async function takeLeaseOwnerLock(session: Client): Promise<number> {
  const { rows } = await session.query<{ owner: number }>(
    `SELECT pg_backend_pid() AS owner, pg_advisory_lock($1, pg_backend_pid())`,
    [LEASE_OWNER_LOCK_SPACE],
  );
  return rows[0].owner;
}

/**
 * Deliveries whose lease is still running but whose owner's lock is gone (its process died, or lost its session)
 * become due at once, their attempts' rows saying why; returns how many. A lease without an owner waits for its end.
 */
export async function expireLeasesOfGoneOwners(db: DataSource): Promise<number> {
  const [{ count }] = await poolQuery<{ count: number }>(
    db,
    `WITH owners AS (
       SELECT objid::int AS owner FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::bigint = $1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
     ),
     orphaned AS (
       UPDATE webhook_deliveries d
          SET lease_until = now(), next_attempt_at = now(), updated_at = now()
        WHERE d.state = 'sending' AND d.lease_until > now() AND d.lease_owner IS NOT NULL
          AND d.lease_owner NOT IN (SELECT owner FROM owners)
       RETURNING d.id, d.fencing_token
     ),
     noted AS (
       UPDATE webhook_delivery_attempts a
          SET latency_ms = (extract(epoch FROM now() - a.started_at) * 1000)::int,
              error = 'the worker process is gone (its database session ended) before this attempt finished'
         FROM orphaned o
        WHERE a.delivery_id = o.id AND a.fencing_token = o.fencing_token AND a.latency_ms IS NULL
     )
     SELECT count(*)::int AS count FROM orphaned`,
    [LEASE_OWNER_LOCK_SPACE],
  );
  return count;
}
