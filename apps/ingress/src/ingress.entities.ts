import { InboundEventEntity } from '@app/inbound-events/entities';
import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs/entities';
import { OutboxMessageEntity } from '@app/outbox/entities';
import { SourceRejectionEntity } from '@app/rejections/entities';

/**
 * The tables the ingress writes: its events and their outbox rows, its retention job's heartbeat and schedule, and the
 * deliveries it rejected (the newest few per source).
 */
export const INGRESS_ENTITIES = [
  InboundEventEntity,
  OutboxMessageEntity,
  JobHeartbeatEntity,
  JobScheduleEntity,
  SourceRejectionEntity,
];
