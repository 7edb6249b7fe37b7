import { AgentTaskStatusRepository } from '@app/agent-tasks';
import { findGroupStatuses } from '@app/consumer-runtime';
import { Database, managerRows } from '@app/db';
import { InboundEventRepository, InboundEventRow } from '@app/inbound-events';
import { OutboxRepository } from '@app/outbox';
import { SagaViews } from '@app/saga';
import { WebhookDeliveryStatusRepository } from '@app/webhooks';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { malformed, notFound } from '@app/http';
import { toEventSagaView } from '../../event-saga.view';
import { EventStatus, EventStatusView, limitToGroups, toSenderStatus } from '../../event-status.view';
import { StatusReader, statusViewFor } from '../../status-access/status-access';
import { StatusReaders } from '../../status-access/status-readers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GET /events/:id — the event's status as the reader may see it: the full view, limited to its groups, or the
 * sender's view; `404`, as for an unknown id, when the reader may not see this event.
 */
@Injectable()
export class GetEventStatusUseCase {
  constructor(
    private readonly database: Database,
    private readonly inboundEvents: InboundEventRepository,
    private readonly agentTasks: AgentTaskStatusRepository,
    private readonly webhookDeliveries: WebhookDeliveryStatusRepository,
    private readonly readers: StatusReaders,
  ) {}

  /** Authenticates the bearer (`401`), then answers as `view`. */
  async execute(command: { id: string; authorization: string | undefined }): Promise<EventStatusView> {
    return this.view(command.id, await this.readers.identify(command.authorization));
  }

  /** The status of event `id` as `reader` may see it; `404` when it may not, `400` for an id that is not a UUID. */
  async view(id: string, reader: StatusReader): Promise<EventStatusView> {
    if (!UUID.test(id)) throw malformed(`"${id.slice(0, 100)}" is not an event id (a UUID)`);
    const manager = (await this.database.connection()).manager;
    const event = await this.inboundEvents.findById(manager, id);
    const view = event && statusViewFor(reader, event);
    if (!event || !view) throw notFound(`no event with id ${id}`);
    const status = await this.fullStatus(manager, event);
    return view.view === 'sender' ? toSenderStatus(status) : limitToGroups(status, view.groups);
  }

  private async fullStatus(manager: EntityManager, event: InboundEventRow): Promise<EventStatus> {
    const id = event.id;
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
