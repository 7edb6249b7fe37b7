import { poolQuery } from '@app/db';
import { LEASE_OWNER_LOCK_SPACE, liveLeaseOwners, TaskFailureDecision } from '@app/tasks';
import { CloudEvent } from '@app/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { AgentTaskState } from './entities/agent-task.entity';

type Db = EntityManager | DataSource;

export interface NewAgentTask {
  event: CloudEvent;
  sourceTopic: string;
  sourcePartition: number;
  sourceOffset: string;
  replayCount: number;
}

/** A task as its claim returned it: what the worker needs, and the token that proves it still owns the task. */
export interface ClaimedAgentTask {
  id: string;
  eventId: string;
  event: CloudEvent;
  /** Claims so far, this one included. */
  attempts: number;
  /** Of those, the ones that ended with a dependency down (they do not spend the attempt budget). */
  dependencyFailures: number;
  fencingToken: string;
  /** The worker (a slot of a process) the claim gave it to. */
  claimedBy: string;
  /** When the first failure happened; the retry ceiling counts from it. */
  firstFailedAt: Date | null;
  /** `claimed` when this claim took over a lease that had run out (its worker died or stalled). */
  priorState: AgentTaskState;
  priorClaimedBy: string | null;
}

/** The task's identity for every write after the claim: the row, and the fencing token of the claim. */
export type TaskFence = Pick<ClaimedAgentTask, 'id' | 'fencingToken'>;

const MAX_ERROR_LENGTH = 2000;

/**
 * In the consumer's dedupe transaction: a new `pending` task, nothing else. A replay (replayCount > 0) of a task
 * that is `dead` resets it to `pending` with a fresh attempt budget; any other conflict leaves the row alone.
 */
export async function enqueueAgentTask(
  manager: EntityManager,
  task: NewAgentTask,
): Promise<'enqueued' | 'reset' | 'exists'> {
  const rows: Array<{ inserted: boolean }> = await manager.query(
    `INSERT INTO agent_tasks (event_id, event_type, event, source_topic, source_partition, source_offset, replay_count, state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending')
     ON CONFLICT (event_id) DO UPDATE
        SET state = 'pending', attempts = 0, next_attempt_at = now(), claimed_at = NULL, lease_until = NULL,
            lease_owner = NULL, claimed_by = NULL, first_failed_at = NULL, last_error_dependency = NULL, dependency_failures = 0,
            dead_lettered_at = NULL, replay_count = EXCLUDED.replay_count,
            source_topic = EXCLUDED.source_topic, source_partition = EXCLUDED.source_partition,
            source_offset = EXCLUDED.source_offset, updated_at = now()
      WHERE agent_tasks.state = 'dead' AND EXCLUDED.replay_count > 0
     RETURNING (xmax = 0) AS inserted`,
    [
      task.event.id,
      task.event.type,
      JSON.stringify(task.event),
      task.sourceTopic,
      task.sourcePartition,
      task.sourceOffset,
      task.replayCount,
    ],
  );
  if (rows.length === 0) return 'exists';
  return rows[0].inserted ? 'enqueued' : 'reset';
}

/**
 * One atomic statement: the tasks due longest (`pending`, `failed` past its backoff, or `claimed` past its lease: all
 * three are `next_attempt_at <= now()`), one per worker id given, locked with SKIP LOCKED so that concurrent claims
 * each get different ones, become `claimed` by their worker with a new lease, a raised fencing token and one more
 * attempt. Fewer (or none) when fewer are due. One round trip for every free slot of a process.
 */
export async function claimAgentTasks(
  db: DataSource,
  workerIds: string[],
  leaseMs: number,
  owner: number | null = null,
): Promise<ClaimedAgentTask[]> {
  if (workerIds.length === 0) return [];
  return claimedTasks(
    await poolQuery(
      db,
      claimStatement(
        `SELECT l.id, l.prior_state, l.prior_claimed_by, s.worker
                        FROM (SELECT id, state AS prior_state, claimed_by AS prior_claimed_by,
                                     row_number() OVER (ORDER BY next_attempt_at, id) AS n
                                FROM (SELECT id, state, claimed_by, next_attempt_at
                                        FROM agent_tasks
                                       WHERE next_attempt_at <= now()
                                       ORDER BY next_attempt_at
                                       LIMIT cardinality($1::varchar[])
                                         FOR UPDATE SKIP LOCKED) locked) l
                        JOIN unnest($1::varchar[]) WITH ORDINALITY AS s(worker, n) ON s.n = l.n`,
        3,
      ),
      [workerIds, leaseMs, owner],
    ),
  );
}

/** `claimAgentTasks` for one worker: its task, or null when nothing is due. */
export async function claimAgentTask(
  db: DataSource,
  workerId: string,
  leaseMs: number,
  owner: number | null = null,
): Promise<ClaimedAgentTask | null> {
  return (await claimAgentTasks(db, [workerId], leaseMs, owner))[0] ?? null;
}

/**
 * While the model's breaker is open: claims, as `claimAgentTask` does, only a due task that failed on a down
 * dependency and whose retry ceiling (`ceilingMs` after its first failure) is spent, for its last try.
 */
export async function claimAgentTaskPastCeiling(
  db: DataSource,
  workerId: string,
  leaseMs: number,
  ceilingMs: number,
  owner: number | null = null,
): Promise<ClaimedAgentTask | null> {
  const [task] = claimedTasks(
    await poolQuery(
      db,
      claimStatement(
        `SELECT id, state AS prior_state, claimed_by AS prior_claimed_by, $1::varchar AS worker
                        FROM agent_tasks
                       WHERE state = 'failed' AND last_error_dependency IS NOT NULL
                         AND first_failed_at <= now() - $3 * interval '1 millisecond' AND next_attempt_at <= now()
                       ORDER BY first_failed_at
                       LIMIT 1
                         FOR UPDATE SKIP LOCKED`,
        4,
      ),
      [workerId, leaseMs, ceilingMs, owner],
    ),
  );
  return task ?? null;
}

/**
 * The claim's update of the tasks that `due` selects and locks, each with its `worker` ($2 the lease, `$owner` the
 * lease owner's key). Prepared once per connection (`poolQuery`): planning it costs about as much as running it.
 */
function claimStatement(due: string, owner: number): string {
  return `UPDATE agent_tasks t
             SET state = 'claimed', claimed_at = now(), lease_until = now() + $2 * interval '1 millisecond',
                 next_attempt_at = now() + $2 * interval '1 millisecond', claimed_by = due.worker,
                 lease_owner = $${owner}::int,
                 fencing_token = t.fencing_token + 1, attempts = t.attempts + 1, updated_at = now()
            FROM (${due}) due
           WHERE t.id = due.id
          RETURNING t.id, t.event_id, t.event, t.attempts, t.dependency_failures, t.fencing_token, t.claimed_by,
                    t.first_failed_at, due.prior_state, due.prior_claimed_by`;
}

function claimedTasks(rows: Array<Record<string, any>>): ClaimedAgentTask[] {
  return rows.map((row) => ({
    id: String(row.id),
    eventId: row.event_id,
    event: row.event,
    attempts: Number(row.attempts),
    dependencyFailures: Number(row.dependency_failures),
    fencingToken: String(row.fencing_token),
    claimedBy: row.claimed_by,
    firstFailedAt: row.first_failed_at ? new Date(row.first_failed_at) : null,
    priorState: row.prior_state,
    priorClaimedBy: row.prior_claimed_by,
  }));
}

/**
 * Claimed tasks whose lease is still running but whose owner's session is gone (its process died, or lost its
 * session) become due at once; returns how many. Their next claim counts the lease as run out.
 */
export async function expireAgentTaskLeasesOfGoneOwners(db: DataSource): Promise<number> {
  const rows = await poolQuery(
    db,
    `UPDATE agent_tasks SET lease_until = now(), next_attempt_at = now(), updated_at = now()
      WHERE state = 'claimed' AND lease_until > now() AND lease_owner IS NOT NULL
        AND lease_owner NOT IN (${liveLeaseOwners(1)})
     RETURNING id`,
    [LEASE_OWNER_LOCK_SPACE],
  );
  return rows.length;
}

/** Extends the lease; false when the task is no longer ours (another claim raised the fencing token). */
export async function renewAgentTaskLease(db: Db, task: TaskFence, leaseMs: number): Promise<boolean> {
  return affected(
    await db.query(
      `UPDATE agent_tasks SET lease_until = now() + $3 * interval '1 millisecond', next_attempt_at = now() + $3 * interval '1 millisecond', updated_at = now()
        WHERE id = $1 AND fencing_token = $2 AND state = 'claimed'`,
      [task.id, task.fencingToken, leaseMs],
    ),
  );
}

/** `done` with the result, only if the fencing token still matches; false means a stale worker was turned away. */
export async function completeAgentTask(db: DataSource, task: TaskFence, result: unknown): Promise<boolean> {
  const rows = await poolQuery(
    db,
    `UPDATE agent_tasks SET state = 'done', result = $3, lease_until = NULL, lease_owner = NULL, next_attempt_at = 'infinity', updated_at = now()
      WHERE id = $1 AND fencing_token = $2 AND state = 'claimed'
     RETURNING id`,
    [task.id, task.fencingToken, JSON.stringify(result)],
  );
  return rows.length > 0;
}

/** A failed attempt's verdict (decideTaskFailure): its dependency, when it found one down (`model`), spends no budget. */
export type TaskFailure = TaskFailureDecision;

/** The published state of a task after a failed attempt: `failed` will be tried again, `dead` was given up on. */
export function stateAfter(failure: Pick<TaskFailure, 'verdict'>): Extract<AgentTaskState, 'failed' | 'dead'> {
  return failure.verdict === 'retryable' ? 'failed' : 'dead';
}

/** Records a failed attempt, only if the fencing token still matches; false means a stale worker was turned away. */
export async function failAgentTask(db: Db, task: TaskFence, failure: TaskFailure): Promise<boolean> {
  return affected(
    await db.query(
      `UPDATE agent_tasks
          SET state = $3::varchar, lease_until = NULL, lease_owner = NULL,
              next_attempt_at = CASE WHEN $3::varchar = 'dead' THEN 'infinity' ELSE now() + $4 * interval '1 millisecond' END,
              last_error_class = $5, last_error = $6, last_error_dependency = $7::varchar,
              dependency_failures = dependency_failures + CASE WHEN $7::varchar IS NULL THEN 0 ELSE 1 END,
              first_failed_at = COALESCE(first_failed_at, now()), updated_at = now()
        WHERE id = $1 AND fencing_token = $2 AND state = 'claimed'`,
      [
        task.id,
        task.fencingToken,
        stateAfter(failure),
        failure.retryInMs,
        failure.errorClass,
        failure.message.slice(0, MAX_ERROR_LENGTH),
        failure.dependency ?? null,
      ],
    ),
  );
}

/**
 * The dependency answers again: every `failed` task that waits on it in its backoff is due now (as the runtime
 * resumes every partition that waited). How many.
 */
export async function releaseAgentTasksWaitingOn(db: Db, dependency: string): Promise<number> {
  const result: unknown = await db.query(
    `UPDATE agent_tasks SET next_attempt_at = now(), updated_at = now()
      WHERE state = 'failed' AND last_error_dependency = $1 AND next_attempt_at > now()`,
    [dependency],
  );
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/** On shutdown: hands a claimed task back (`pending`, the interrupted attempt not counted) for any worker to take. */
export async function releaseAgentTask(db: Db, task: TaskFence): Promise<boolean> {
  return affected(
    await db.query(
      `UPDATE agent_tasks SET state = 'pending', attempts = attempts - 1, next_attempt_at = now(), lease_until = NULL,
              lease_owner = NULL, claimed_by = NULL, updated_at = now()
        WHERE id = $1 AND fencing_token = $2 AND state = 'claimed'`,
      [task.id, task.fencingToken],
    ),
  );
}

/** Tasks per state, for the metrics gauge. */
export async function countAgentTasksByState(db: Db): Promise<Array<{ state: AgentTaskState; count: number }>> {
  const rows: Array<{ state: AgentTaskState; count: string }> = await db.query(
    `SELECT state, COUNT(*)::text AS count FROM agent_tasks GROUP BY state`,
  );
  return rows.map((row) => ({ state: row.state, count: Number(row.count) }));
}

/**
 * Retention: up to `limit` finished tasks last changed before `cutoff`: `done`, or `dead` and already on `agent.dlt`.
 * `pending`, `claimed` and `failed` tasks, and dead ones still waiting for their dead letter, are never deleted.
 */
export async function deleteFinishedAgentTasksBefore(db: Db, cutoff: Date, limit: number): Promise<number> {
  // The conditions are repeated on the DELETE so that a task a replay reset to `pending` meanwhile is skipped.
  const finished = `state IN ('done', 'dead') AND (state = 'done' OR dead_lettered_at IS NOT NULL) AND updated_at < $1`;
  const [{ deleted }]: Array<{ deleted: number }> = await db.query(
    `WITH gone AS (
       DELETE FROM agent_tasks
        WHERE id IN (SELECT id FROM agent_tasks WHERE ${finished} ORDER BY updated_at LIMIT $2) AND ${finished}
       RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [cutoff, limit],
  );
  return deleted;
}

// TypeORM's postgres driver answers an UPDATE with [returned rows, affected count].
function affected(result: unknown): boolean {
  return Array.isArray(result) && typeof result[1] === 'number' && result[1] > 0;
}
