import { findAgentTaskTrail } from '@app/agent-tasks';
import { TrailEntry, TrailSource } from '../trail';

/** The agent's model task for the event (agent_tasks): created where it was consumed, its state now, its dead letter. */
export const agentTaskTrail: TrailSource = {
  name: 'agent-task',
  async entries(event, { db }) {
    const task = await findAgentTaskTrail(db, event.id);
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
