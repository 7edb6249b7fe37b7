import { ConsumerEventStatusEntity, DependencyBreakerEntity, ProcessedEventEntity } from '@app/consumer-runtime';
import { DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters';
import { JobHeartbeatEntity } from '@app/jobs';
import { AgentTaskEntity } from './agent/agent-task.entity';
import { DailyTotalEntity } from './analytics/daily-total.entity';
import { LedgerEntryEntity } from './ledger/ledger-entry.entity';
import { NotificationEntity } from './notifier/notification.entity';

/**
 * The tables the consumer services write: the runtime's dedupe and status rows, the keys a group parks and the
 * events parked behind them (`dead_letters` rows in status `parked`), each service's own tables, and the retention
 * jobs' heartbeats. (The dead-letter store it also runs has a DataSource of its own.)
 */
export const CONSUMERS_ENTITIES = [
  ProcessedEventEntity,
  ConsumerEventStatusEntity,
  DependencyBreakerEntity,
  ParkedKeyEntity,
  DeadLetterEntity,
  LedgerEntryEntity,
  NotificationEntity,
  AgentTaskEntity,
  DailyTotalEntity,
  JobHeartbeatEntity,
];
