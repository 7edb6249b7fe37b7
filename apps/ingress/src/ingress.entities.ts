import { DeadLetterAuditEntity, DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters';
import { JobHeartbeatEntity } from '@app/jobs';
import { OutboxMessageEntity } from '@app/outbox';
import { InboundEventEntity } from './events/inbound-event.entity';

/**
 * The tables the ingress writes: its events and their outbox rows, its retention job's heartbeat, and the dead
 * letters and parked keys an operator replays or purges through `/admin` (with their audit).
 */
export const INGRESS_ENTITIES = [
  InboundEventEntity,
  OutboxMessageEntity,
  JobHeartbeatEntity,
  DeadLetterEntity,
  DeadLetterAuditEntity,
  ParkedKeyEntity,
];
