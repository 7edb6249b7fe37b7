import { poolQuery } from '@app/db';
import { LEASE_OWNER_LOCK_SPACE, liveLeaseOwners } from '@app/tasks';
import { DataSource } from 'typeorm';

/**
 * Deliveries whose lease is still running but whose owner's lock is gone (its process died, or lost its session)
 * become due at once, their attempts' rows saying why; returns how many. A lease without an owner waits for its end.
 */
export async function expireLeasesOfGoneOwners(db: DataSource): Promise<number> {
  const [{ count }] = await poolQuery<{ count: number }>(
    db,
    `WITH orphaned AS (
       UPDATE webhook_deliveries d
          SET lease_until = now(), next_attempt_at = now(), updated_at = now()
        WHERE d.state = 'sending' AND d.lease_until > now() AND d.lease_owner IS NOT NULL
          AND d.lease_owner NOT IN (${liveLeaseOwners(1)})
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
