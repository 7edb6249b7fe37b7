import { enqueueAgentTask } from '@app/agent-tasks';
import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { needsTriage } from './order-triage.prompt';

/**
 * The agent's whole Kafka-side work: a `pending` task row in the consumer's dedupe transaction, then the offset
 * moves on. The model is called later by the worker pool, so a slow call never holds the partition. A replay of a
 * dead task's dead letter resets it to `pending`.
 */
@Injectable()
export class EnqueueAgentTaskUseCase {
  async execute(event: CloudEvent<OrderFieldsV1>, ctx: ConsumerContext): Promise<void> {
    if (!needsTriage(event)) return;
    const outcome = await enqueueAgentTask(ctx.manager, {
      event,
      sourceTopic: ctx.topic,
      sourcePartition: ctx.partition,
      sourceOffset: ctx.offset,
      replayCount: ctx.replayCount,
    });
    if (outcome === 'reset')
      ctx.logger.info({ replayCount: ctx.replayCount }, 'replay: dead agent task reset to pending');
  }
}
