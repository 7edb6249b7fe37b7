import { WebhookDeliveryStatus } from '@app/webhooks';
import { EventSagaView } from './event-saga.view';

/** `GET /events/:id` as an operator token (or `EVENT_STATUS_ACCESS=public`) reads it: everything the ingress knows. */
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
  /** Its outbound webhook deliveries, one per endpoint, when it has any (times as ISO strings). */
  webhookDeliveries?: Array<
    Omit<WebhookDeliveryStatus, 'deliveredAt' | 'updatedAt'> & { deliveredAt: string | null; updatedAt: string }
  >;
}

/**
 * `GET /events/:id` as its sender reads it (a producer token, or a status token of its source): where the event is,
 * never why it failed. No error text (it may name our providers, hosts or other customers' data), no attempts, no
 * source, type or key (routing details), no outbound deliveries (other parties' endpoints), and the saga as its
 * state only (its steps name our internal commands).
 */
export interface SenderEventStatus {
  id: string;
  status: EventStatus['status'];
  receivedAt: string;
  publishedAt: string | null;
  /** Each consumer group that has seen it: processed, retrying, dead or parked. */
  groups: Array<{ group: string; status: string; updatedAt: string }>;
  agentTask?: { state: string; updatedAt: string };
  saga?: { state: string; updatedAt: string };
}

export type EventStatusView = EventStatus | SenderEventStatus;

/** Whether this is the full view (only it names the event's source). */
export function isFullStatus(status: EventStatusView): status is EventStatus {
  return 'source' in status;
}

/** The sender's view of a full status (see `SenderEventStatus` for what is left out and why). */
export function toSenderStatus(status: EventStatus): SenderEventStatus {
  return {
    id: status.id,
    status: status.status,
    receivedAt: status.receivedAt,
    publishedAt: status.publishedAt,
    groups: status.groups.map(({ group, status: state, updatedAt }) => ({ group, status: state, updatedAt })),
    ...(status.agentTask && { agentTask: { state: status.agentTask.state, updatedAt: status.agentTask.updatedAt } }),
    ...(status.saga && { saga: { state: status.saga.state, updatedAt: status.saga.updatedAt } }),
  };
}

/** The consumer group whose work each optional part of the status shows. */
const PART_GROUP = { agentTask: 'agent', saga: 'fulfilment', webhookDeliveries: 'webhooks' } as const;

/**
 * The full status as a token limited to `groups` sees it: those groups' rows only, and the agent task, saga and
 * outbound deliveries only when their group (agent, fulfilment, webhooks) is among them. null: every group.
 */
export function limitToGroups(status: EventStatus, groups: readonly string[] | null): EventStatus {
  if (groups === null) return status;
  const limited: EventStatus = { ...status, groups: status.groups.filter((row) => groups.includes(row.group)) };
  for (const [part, group] of Object.entries(PART_GROUP) as Array<[keyof typeof PART_GROUP, string]>) {
    if (!groups.includes(group)) delete limited[part];
  }
  return limited;
}
