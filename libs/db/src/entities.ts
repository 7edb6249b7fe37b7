// The whole schema, one list. Each table is owned by the app or lib that holds its entity (docs/architecture.md);
// this list is the composition root that migrations and the drift check compare against.
import { JobHeartbeatEntity } from '@app/jobs';
import { OutboxMessageEntity } from '@app/outbox';
import { InboundEventEntity } from '../../../apps/ingress/src/events/inbound-event.entity';
// The consumer runtime's entities by path: its index imports @app/db, and a cycle would leave them undefined here.
import { ConsumerEventStatusEntity } from '../../consumer-runtime/src/entities/consumer-event-status.entity';
import { ProcessedEventEntity } from '../../consumer-runtime/src/entities/processed-event.entity';
import { LedgerEntryEntity } from '../../../apps/consumers/src/ledger/ledger-entry.entity';
// The dead-letter store's entities by path, for the same reason.
import { DeadLetterAuditEntity } from '../../dead-letters/src/dead-letter-audit.entity';
import { DeadLetterEntity } from '../../dead-letters/src/dead-letter.entity';
import { NotificationEntity } from '../../../apps/consumers/src/notifier/notification.entity';
import { AgentTaskEntity } from '../../../apps/consumers/src/agent/agent-task.entity';
// Outbound webhooks and the operator audit by path, for the same reason.
import { OperatorAuditEntity } from '../../audit/src/operator-audit.entity';
import { WebhookDeliveryAttemptEntity } from '../../webhooks/src/entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from '../../webhooks/src/entities/webhook-delivery.entity';
import { WebhookEndpointSecretEntity } from '../../webhooks/src/entities/webhook-endpoint-secret.entity';
import { WebhookEndpointEntity } from '../../webhooks/src/entities/webhook-endpoint.entity';

export const ENTITIES = [
  InboundEventEntity,
  OutboxMessageEntity,
  JobHeartbeatEntity,
  ProcessedEventEntity,
  ConsumerEventStatusEntity,
  LedgerEntryEntity,
  NotificationEntity,
  AgentTaskEntity,
  DeadLetterEntity,
  DeadLetterAuditEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
  OperatorAuditEntity,
];
