import { DataSource, EntityManager } from 'typeorm';
import { BreakerState } from '../consumer-states';

const MAX_ERROR_LENGTH = 2000;

export interface DependencyBreakerRow {
  group: string;
  dependency: string;
  state: BreakerState;
  since: Date;
  lastError: string | null;
  updatedAt: Date;
}

/**
 * On a state change: the group's breaker for the dependency. `since` stays when another process of the group reports
 * the state the row already holds, so that an outage reads from its first opening.
 */
export async function saveBreakerState(
  db: EntityManager | DataSource,
  row: { group: string; dependency: string; state: BreakerState; since: Date; lastError: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO dependency_breakers ("group", dependency, state, since, last_error, updated_at)
     VALUES ($1, $2, $3, $4, $5, now())
     ON CONFLICT ("group", dependency) DO UPDATE
        SET since = CASE WHEN dependency_breakers.state = EXCLUDED.state THEN dependency_breakers.since ELSE EXCLUDED.since END,
            state = EXCLUDED.state,
            last_error = COALESCE(EXCLUDED.last_error, dependency_breakers.last_error),
            updated_at = now()`,
    [row.group, row.dependency, row.state, row.since, row.lastError?.slice(0, MAX_ERROR_LENGTH) ?? null],
  );
}

/** Every breaker any group has reported, open ones first, then by group and dependency. */
export async function listBreakers(
  db: EntityManager | DataSource,
  { openOnly = false } = {},
): Promise<DependencyBreakerRow[]> {
  const rows: Array<{
    group: string;
    dependency: string;
    state: BreakerState;
    since: Date;
    last_error: string | null;
    updated_at: Date;
  }> = await db.query(
    `SELECT "group", dependency, state, since, last_error, updated_at
       FROM dependency_breakers
      WHERE $1::boolean IS FALSE OR state = 'open'
      ORDER BY state = 'open' DESC, "group", dependency`,
    [openOnly],
  );
  return rows.map((row) => ({
    group: row.group,
    dependency: row.dependency,
    state: row.state,
    since: new Date(row.since),
    lastError: row.last_error,
    updatedAt: new Date(row.updated_at),
  }));
}
