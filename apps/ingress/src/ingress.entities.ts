import { DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters/entities';
import { OperatorAuditEntity } from '@app/audit/entities';
import { InboundEventEntity } from '@app/inbound-events/entities';
import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs/entities';
import { OutboxMessageEntity } from '@app/outbox/entities';
import { SourceRejectionEntity } from '@app/rejections/entities';
import { WebhookEndpointEntity, WebhookEndpointSecretEntity } from '@app/webhooks/entities';
import { OpsSampleEntity } from './admin/charts/ops-sample.entity';

/**
 * The tables the ingress writes: its events and their outbox rows, its jobs' heartbeats and schedules, the operator charts' samples, and the dead
 * letters and parked keys an operator replays or purges through `/admin` (with their audit), and the deliveries it
 * rejected (the newest few per source).
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
  ParkedKeyEntity,
  SourceRejectionEntity,
];
