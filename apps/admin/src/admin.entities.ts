import { OperatorAuditEntity } from '@app/audit/entities';
import { DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters/entities';
import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs/entities';
import { SourceRejectionEntity } from '@app/rejections/entities';
import {
  CustomerTokenEntity,
  WebhookCustomerEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
} from '@app/webhooks/entities';
import { OpsSampleEntity } from './charts/ops-sample.entity';

/**
 * The tables the operator plane writes: the console charts' samples (and their job's heartbeat and schedule), the dead
 * letters and parked keys an operator replays or purges, outbound webhook endpoints and their secrets, with the audit
 * of every change; and reads: the rejected deliveries the ingress keeps.
 */
export const ADMIN_ENTITIES = [
  OpsSampleEntity,
  JobHeartbeatEntity,
  JobScheduleEntity,
  WebhookCustomerEntity,
  CustomerTokenEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
  OperatorAuditEntity,
  DeadLetterEntity,
  ParkedKeyEntity,
  SourceRejectionEntity,
];
