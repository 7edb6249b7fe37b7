import { AgentTaskStatus, findAgentTask } from '@app/agent-tasks';
import { DataSource } from 'typeorm';
import { FakeModelServer } from '../dev-model/model.server';

/** The agent settings of a consumers process in the lease tests: one worker, a 1.5 s lease, polled every 100 ms. */
export function agentProcessEnv(model: FakeModelServer, apiKey: string): Record<string, string> {
  return {
    MODEL_BASE_URL: model.baseUrl,
    MODEL_API_KEY: apiKey,
    AGENT_WORKERS: '1',
    AGENT_LEASE_MS: '1500',
    AGENT_POLL_INTERVAL_MS: '100',
  };
}

/** A `waitFor` condition: the event's task, once it is in `state`. */
export const taskIn =
  (dataSource: DataSource, eventId: string, state: AgentTaskStatus['state']) =>
  async (): Promise<AgentTaskStatus | undefined> => {
    const task = await findAgentTask(dataSource, eventId);
    return task?.state === state ? task : undefined;
  };

export async function fencingToken(dataSource: DataSource, eventId: string): Promise<string> {
  const [{ fencing_token }] = await dataSource.query(`SELECT fencing_token FROM agent_tasks WHERE event_id = $1`, [
    eventId,
  ]);
  return fencing_token;
}
