import { OperatorTokenEntity } from '@app/access/entities';
import { OperatorAuditEntity } from '@app/audit/entities';
import { DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters/entities';
import {
  CustomerTokenEntity,
  WebhookCustomerEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
} from '@app/webhooks/entities';

/** The tables the operator CLI writes: dead letters it replays or purges, the keys it purges, webhook endpoints and operator tokens it manages, and the audit of them all. */
export const CLI_ENTITIES = [
  DeadLetterEntity,
  ParkedKeyEntity,
  WebhookCustomerEntity,
  CustomerTokenEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
  OperatorAuditEntity,
  OperatorTokenEntity,
];
