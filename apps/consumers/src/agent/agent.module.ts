import { AgentTaskEntity, deleteFinishedAgentTasksBefore } from '@app/agent-tasks';
import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { AgentController } from './agent.controller';
import { AgentMetrics } from './agent.metrics';
import { AgentWorkerPool } from './agent-worker-pool';
import { EnqueueAgentTaskUseCase } from './enqueue-agent-task.usecase';
import { ModelClient } from './model.client';
import { AgentEnv } from './agent.env';

/**
 * The agent service: consumer group `agent` turns order events into `agent_tasks` rows; a pool of workers in the
 * same process claims them and calls the model.
 */
@Module({
  controllers: [AgentController],
  providers: [
    EnqueueAgentTaskUseCase,
    AgentWorkerPool,
    {
      provide: ModelClient,
      inject: [ConsumerServiceDeps],
      useFactory: ({ config }: ConsumerServiceDeps<AgentEnv>) =>
        new ModelClient({
          baseUrl: config.MODEL_BASE_URL,
          model: config.MODEL_NAME,
          apiKey: config.MODEL_API_KEY,
          timeoutMs: config.MODEL_TIMEOUT_MS,
        }),
    },
    {
      provide: AgentMetrics,
      inject: [ConsumerServiceDeps],
      useFactory: ({ metrics, dataSource }: ConsumerServiceDeps) => new AgentMetrics(metrics.registry, dataSource),
    },
  ],
})
export class AgentModule {}

export const AGENT_SERVICE = {
  group: 'agent',
  topics: [TOPICS.shopOrders],
  module: AgentModule,
  env: AgentEnv,
  entities: [AgentTaskEntity],
  history: { agent_tasks: deleteFinishedAgentTasksBefore },
  owner: { team: 'support-automation', contact: 'support-automation@example.com' },
} as const;
