import { TrailEntry, TrailSource } from '../trail';

interface AgentTaskRow {
  state: string;
  attempts: number;
  claimed_by: string | null;
  last_error_class: string | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  source_topic: string;
  source_partition: number;
  source_offset: string;
  replay_count: number;
  dead_lettered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The agent's model task for the event (agent_tasks): created where it was consumed, its state now, its dead letter. */
export const agentTaskTrail: TrailSource = {
  name: 'agent-task',
  async entries(event, { db }) {
    const rows: AgentTaskRow[] = await db.query(
      `SELECT state, attempts, claimed_by, last_error_class, last_error, NULLIF(next_attempt_at, 'infinity') AS next_attempt_at,
              source_topic, source_partition, source_offset, replay_count, dead_lettered_at, created_at, updated_at
         FROM agent_tasks WHERE event_id = $1`,
      [event.id],
    );
    const task = rows[0];
    if (!task) return [];
    const lastError = task.last_error ? `${task.last_error_class ?? 'Error'}: ${task.last_error}` : null;
    const entries: TrailEntry[] = [
      {
        at: new Date(task.created_at),
        step: 'task-created',
        level: 'info',
        group: 'agent',
        summary: `agent task created from ${task.source_topic} [${task.source_partition}] @${task.source_offset}`,
        detail: { topic: task.source_topic, partition: task.source_partition, offset: task.source_offset },
      },
    ];
    if (task.dead_lettered_at)
      entries.push({
        at: new Date(task.dead_lettered_at),
        step: 'task-dead-lettered',
        level: 'error',
        group: 'agent',
        summary: `agent task sent to agent.dlt after ${task.attempts} attempt(s): ${lastError ?? 'unknown error'}`,
        detail: { attempts: task.attempts, lastError },
      });
    if (new Date(task.updated_at).getTime() > new Date(task.created_at).getTime())
      entries.push({
        at: new Date(task.updated_at),
        step: `task-${task.state}`,
        level:
          task.state === 'done' ? 'ok' : task.state === 'dead' ? 'error' : task.state === 'failed' ? 'warn' : 'info',
        group: 'agent',
        summary: `agent task ${task.state} (attempts ${task.attempts}${task.claimed_by ? `, by ${task.claimed_by}` : ''}${lastError && task.state !== 'done' ? `, last error ${lastError}` : ''}${task.next_attempt_at ? `, next attempt ${new Date(task.next_attempt_at).toISOString()}` : ''})`,
        detail: {
          state: task.state,
          attempts: task.attempts,
          claimedBy: task.claimed_by,
          lastError,
          nextAttemptAt: task.next_attempt_at,
          replayCount: task.replay_count,
        },
      });
    return entries;
  },
};
