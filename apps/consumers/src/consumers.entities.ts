import {
  ConsumerEventStatusEntity,
  ConsumerGroupOwnerEntity,
  DependencyBreakerEntity,
  ProcessedEventEntity,
} from '@app/consumer-runtime/entities';
import { DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters/entities';
import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs/entities';
import { SagaEntity, SagaStepEntity } from '@app/saga/entities';
import {
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
} from '@app/webhooks/entities';
import { AgentTaskEntity } from './agent/agent-task.entity';
import { DailyTotalEntity } from './analytics/daily-total.entity';
import { StockReservationEntity } from './inventory/stock-reservation.entity';
import { StockEntity } from './inventory/stock.entity';
import { LedgerEntryEntity } from './ledger/ledger-entry.entity';
import { NotificationEntity } from './notifier/notification.entity';
import { PaymentEntity } from './payments/payment.entity';
import { ShipmentEntity } from './shipping/shipment.entity';

/**
 * The tables the consumer services write: the runtime's dedupe and status rows, the keys a group parks and the
 * events parked behind them (`dead_letters` rows in status `parked`), each service's own tables, and the retention
 * jobs' heartbeats. (The dead-letter store it also runs has a DataSource of its own.)
 */
export const CONSUMERS_ENTITIES = [
  ProcessedEventEntity,
  ConsumerEventStatusEntity,
  DependencyBreakerEntity,
  ConsumerGroupOwnerEntity,
  ParkedKeyEntity,
  DeadLetterEntity,
  LedgerEntryEntity,
  NotificationEntity,
  AgentTaskEntity,
  DailyTotalEntity,
  JobHeartbeatEntity,
  JobScheduleEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
  SagaEntity,
  SagaStepEntity,
  StockEntity,
  StockReservationEntity,
  PaymentEntity,
  ShipmentEntity,
];
