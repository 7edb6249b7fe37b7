import { ClaimedAgentTask, TaskFailure } from '@app/agent-tasks';
import { decideTaskFailure, TaskRetrySettings } from '@app/tasks';

/**
 * What a failed attempt makes of an agent task, as the task library decides for any task: a model that refused the
 * request (a 4xx) makes it `dead` at once; a down model (`ModelUnavailableError`) leaves it `failed` with a backoff
 * until the ceiling, without spending the budget; anything else leaves it `failed` until the budget is spent.
 * `failed` is the agent's published name for a task that will be tried again.
 */
export function decideAgentTaskFailure(
  task: Pick<ClaimedAgentTask, 'attempts' | 'dependencyFailures' | 'firstFailedAt'>,
  error: unknown,
  settings: TaskRetrySettings,
  now = Date.now(),
  random: () => number = Math.random,
): TaskFailure {
  const { retry, ...decision } = decideTaskFailure(task, error, settings, now, random);
  return { state: retry ? 'failed' : 'dead', ...decision };
}
