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
// The saga library's entities by path, like the runtime's: its index imports @app/outbox, which imports @app/db.
import { SagaEntity } from '../../saga/src/saga.entity';
import { SagaStepEntity } from '../../saga/src/saga-step.entity';
import { StockEntity } from '../../../apps/consumers/src/inventory/stock.entity';
import { StockReservationEntity } from '../../../apps/consumers/src/inventory/stock-reservation.entity';
import { PaymentEntity } from '../../../apps/consumers/src/payments/payment.entity';
import { ShipmentEntity } from '../../../apps/consumers/src/shipping/shipment.entity';

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
  SagaEntity,
  SagaStepEntity,
  StockEntity,
  StockReservationEntity,
  PaymentEntity,
  ShipmentEntity,
];
