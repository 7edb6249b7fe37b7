import { AgentTaskState, countAgentTasksByState } from '@app/agent-tasks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

const STATES: AgentTaskState[] = ['pending', 'claimed', 'done', 'failed', 'dead'];

/** The agent's metrics, in the consumers app's registry. */
export class AgentMetrics {
  readonly tasks: Gauge<'state'>;
  readonly leaseExpiries: Counter;
  readonly fenced: Counter<'operation'>;
  readonly attempts: Counter<'outcome'>;
  readonly modelSeconds: Histogram<'outcome'>;

  constructor(registry: Registry, dataSource: DataSource) {
    const registers = [registry];
    this.tasks = new Gauge({
      name: 'hookrail_agent_tasks',
      help: 'Agent tasks by state (read from agent_tasks at scrape time)',
      labelNames: ['state'],
      registers,
      async collect() {
        const counts = new Map((await countAgentTasksByState(dataSource)).map((row) => [row.state, row.count]));
        for (const state of STATES) this.set({ state }, counts.get(state) ?? 0);
      },
    });
    this.leaseExpiries = new Counter({
      name: 'hookrail_agent_lease_expiries_total',
      help: 'Claims that took over a task whose lease had run out',
      registers,
    });
    this.fenced = new Counter({
      name: 'hookrail_agent_fenced_writes_total',
      help: 'Writes of a stale worker turned away because another claim raised the fencing token',
      labelNames: ['operation'],
      registers,
    });
    this.attempts = new Counter({
      name: 'hookrail_agent_attempts_total',
      help: 'Finished attempts by outcome (done, failed, dead, released)',
      labelNames: ['outcome'],
      registers,
    });
    this.modelSeconds = new Histogram({
      name: 'hookrail_agent_model_duration_seconds',
      help: 'Model call latency by outcome (ok, error)',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
  }
}
