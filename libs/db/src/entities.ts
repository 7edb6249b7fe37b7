// The whole schema, one list. Each table is owned by the app or lib that holds its entity (docs/architecture.md);
// this list is the composition root that migrations and the drift check compare against.
import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs';
import { OutboxMessageEntity } from '@app/outbox';
import { InboundEventEntity } from '../../../apps/ingress/src/events/inbound-event.entity';
// The consumer runtime's entities by path: its index imports @app/db, and a cycle would leave them undefined here.
import { ConsumerEventStatusEntity } from '../../consumer-runtime/src/entities/consumer-event-status.entity';
import { ProcessedEventEntity } from '../../consumer-runtime/src/entities/processed-event.entity';
import { ConsumerGroupOwnerEntity } from '../../consumer-runtime/src/owners/consumer-group-owner.entity';
import { LedgerEntryEntity } from '../../../apps/consumers/src/ledger/ledger-entry.entity';
// The dead-letter store's entities by path, for the same reason.
import { DeadLetterAuditEntity } from '../../dead-letters/src/dead-letter-audit.entity';
import { DeadLetterEntity } from '../../dead-letters/src/dead-letter.entity';
import { NotificationEntity } from '../../../apps/consumers/src/notifier/notification.entity';
import { AgentTaskEntity } from '../../../apps/consumers/src/agent/agent-task.entity';
import { OpsSampleEntity } from '../../../apps/ingress/src/admin/charts/ops-sample.entity';

export const ENTITIES = [
  InboundEventEntity,
  OutboxMessageEntity,
  JobHeartbeatEntity,
  JobScheduleEntity,
  ProcessedEventEntity,
  ConsumerEventStatusEntity,
  LedgerEntryEntity,
  NotificationEntity,
  AgentTaskEntity,
  DeadLetterEntity,
  DeadLetterAuditEntity,
  ConsumerGroupOwnerEntity,
  OpsSampleEntity,
];
