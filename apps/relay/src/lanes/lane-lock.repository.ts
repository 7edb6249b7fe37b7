import { QueryRows } from '@app/db';

/**
 * Advisory-lock key spaces of the relay (first int4 of the two-key form; docs/architecture.md, Advisory locks, lists
 * every space). A relay holds one member lock (its slot) and one lane lock per lane it owns, all session-level on its
 * lane connection: when the process dies, Postgres drops the connection and with it every lock, at once.
 */
export const RELAY_MEMBER_LOCK_SPACE = 0x68720001;
export const RELAY_LANE_LOCK_SPACE = 0x68720002;

/** The lane and membership statements, one named method each; `rows` runs on the lane connection. */
export class LaneLockRepository {
  constructor(private readonly rows: QueryRows) {}

  /** Takes member slot `slot` unless another relay holds it. */
  async tryJoinAsMember(slot: number): Promise<boolean> {
    const [row] = await this.rows<{ joined: boolean }>(`SELECT pg_try_advisory_lock($1, $2) AS joined`, [
      RELAY_MEMBER_LOCK_SPACE,
      slot,
    ]);
    return row.joined;
  }

  /** Live relays of this database (each holds one member lock). */
  async countMembers(): Promise<number> {
    const [row] = await this.rows<{ members: number }>(
      `SELECT count(*)::int AS members FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::bigint = $1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [RELAY_MEMBER_LOCK_SPACE],
    );
    return row.members;
  }

  /** Lanes some relay of this database owns. */
  async findTakenLanes(): Promise<number[]> {
    const rows = await this.rows<{ lane: number }>(
      `SELECT objid::int AS lane FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::bigint = $1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [RELAY_LANE_LOCK_SPACE],
    );
    return rows.map((row) => row.lane);
  }

  /** Tries to lock each lane; returns those it got (another relay may have been faster). */
  async tryLockLanes(lanes: number[]): Promise<number[]> {
    const rows = await this.rows<{ lane: number }>(
      `SELECT lane FROM unnest($2::int[]) AS lane WHERE pg_try_advisory_lock($1, lane)`,
      [RELAY_LANE_LOCK_SPACE, lanes],
    );
    return rows.map((row) => row.lane);
  }

  async unlockLanes(lanes: number[]): Promise<void> {
    await this.rows(`SELECT pg_advisory_unlock($1, lane) FROM unnest($2::int[]) AS lane`, [
      RELAY_LANE_LOCK_SPACE,
      lanes,
    ]);
  }

  /** Gives back every lane and the member slot. */
  async leave(): Promise<void> {
    await this.rows(`SELECT pg_advisory_unlock_all()`);
  }
}
