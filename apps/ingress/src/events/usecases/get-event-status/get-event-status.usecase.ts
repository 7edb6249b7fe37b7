import { AgentTaskStatusRepository } from '@app/agent-tasks';
import { findGroupStatuses } from '@app/consumer-runtime';
import { Database, managerRows } from '@app/db';
import { InboundEventRepository } from '@app/inbound-events';
import { OutboxRepository } from '@app/outbox';
import { SagaViews } from '@app/saga';
import { WebhookDeliveryStatusRepository } from '@app/webhooks';
import { Injectable } from '@nestjs/common';
import { malformed, notFound } from '@app/http';
import { EventSagaView, toEventSagaView } from '../../event-saga.view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventStatus {
  id: string;
  source: string;
  type: string;
  aggregateId: string;
  receivedAt: string;
  /**
   * accepted: committed, not yet on Kafka; published: the broker acknowledged it; parked: the broker rejected it for
   * good (e.g. too large) and it waits for an operator (`publishError` says why).
   */
  status: 'accepted' | 'published' | 'parked';
  publishedAt: string | null;
  publishError?: string;
  /**
   * Per consumer group that has seen the event: processed, retrying, dead, or parked (its key waits behind a dead
   * letter of an earlier event; `lastError` names it). Absent groups have not seen it yet.
   */
  groups: Array<{ group: string; status: string; attempts: number; lastError: string | null; updatedAt: string }>;
  /** The agent's slow-work task for this event (pending, claimed, done, failed, dead), when it has one. */
  agentTask?: {
    state: string;
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string | null;
    updatedAt: string;
  };
  /** The saga this event started (an order placed starts its fulfilment), with every transition so far. */
  saga?: EventSagaView;
  /** Its outbound webhook deliveries, one per endpoint, when it has any. */
  webhookDeliveries?: Array<{
    endpointId: string;
    url: string;
    status: string;
    attempts: number;
    lastStatus: number | null;
    lastError: string | null;
    deliveredAt: string | null;
    updatedAt: string;
  }>;
}

/** GET /events/:id */
@Injectable()
export class GetEventStatusUseCase {
  constructor(
    private readonly database: Database,
    private readonly inboundEvents: InboundEventRepository,
    private readonly agentTasks: AgentTaskStatusRepository,
    private readonly webhookDeliveries: WebhookDeliveryStatusRepository,
  ) {}

  async execute(id: string): Promise<EventStatus> {
    if (!UUID.test(id)) throw malformed(`"${id.slice(0, 100)}" is not an event id (a UUID)`);
    const manager = (await this.database.connection()).manager;
    const event = await this.inboundEvents.findById(manager, id);
    if (!event) throw notFound(`no event with id ${id}`);
    const publication = await new OutboxRepository(managerRows(manager)).findPublication(id);
    // No outbox row left means it was published and then pruned by retention.
    const published = publication === undefined || publication.publishedAt !== null;
    const parked = !published && publication?.parkedAt != null;
    const groups = await findGroupStatuses(manager, id);
    const task = await this.agentTasks.findByEventId(manager, id);
    const deliveries = await this.webhookDeliveries.findByEvent(manager, id);
    const [saga] = await SagaViews.startedBy(manager, id);
    return {
      id: event.id,
      source: event.source,
      type: event.type,
      aggregateId: event.aggregateId,
      receivedAt: event.receivedAt.toISOString(),
      status: published ? 'published' : parked ? 'parked' : 'accepted',
      publishedAt: publication?.publishedAt ? publication.publishedAt.toISOString() : null,
      ...(parked && publication?.lastError ? { publishError: publication.lastError } : {}),
      groups: groups.map((group) => ({ ...group, updatedAt: group.updatedAt.toISOString() })),
      ...(task && {
        agentTask: {
          state: task.state,
          attempts: task.attempts,
          lastError: task.lastError,
          nextAttemptAt: task.nextAttemptAt?.toISOString() ?? null,
          updatedAt: task.updatedAt.toISOString(),
        },
      }),
      ...(saga && { saga: toEventSagaView(saga) }),
      ...(deliveries.length > 0 && {
        webhookDeliveries: deliveries.map((delivery) => ({
          ...delivery,
          deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
          updatedAt: delivery.updatedAt.toISOString(),
        })),
      }),
    };
  }
}
