import { DeadLetterAuditEntity, DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters';
import { OperatorAuditEntity } from '@app/audit';
import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs';
import { OutboxMessageEntity } from '@app/outbox';
import { WebhookEndpointEntity, WebhookEndpointSecretEntity } from '@app/webhooks';
import { OpsSampleEntity } from './admin/charts/ops-sample.entity';
import { InboundEventEntity } from './events/inbound-event.entity';

/**
 * The tables the ingress writes: its events and their outbox rows, its jobs' heartbeats and schedules, the operator charts' samples, and the dead
 * letters and parked keys an operator replays or purges through `/admin` (with their audit).
 */
export const INGRESS_ENTITIES = [
  InboundEventEntity,
  OutboxMessageEntity,
  JobHeartbeatEntity,
  JobScheduleEntity,
  OpsSampleEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
  OperatorAuditEntity,
  DeadLetterEntity,
  DeadLetterAuditEntity,
  ParkedKeyEntity,
];
