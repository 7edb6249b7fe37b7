import {
  ConsumerEventStatusEntity,
  ConsumerGroupOwnerEntity,
  DependencyBreakerEntity,
  ProcessedEventEntity,
} from '@app/consumer-runtime/entities';
import { DeadLetterEntity, ParkedKeyEntity } from '@app/dead-letters/entities';
import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs/entities';
import { CONSUMER_SERVICES } from './consumer-services';

/**
 * The tables the consumer services write: the runtime's dedupe and status rows, the keys a group parks and the
 * events parked behind them (`dead_letters` rows in status `parked`), the retention jobs' heartbeats, and each
 * service's own tables (`entities` in its definition). (The dead-letter store it also runs has a DataSource of its
 * own.)
 */
export const CONSUMERS_ENTITIES = [
  ProcessedEventEntity,
  ConsumerEventStatusEntity,
  DependencyBreakerEntity,
  ConsumerGroupOwnerEntity,
  ParkedKeyEntity,
  DeadLetterEntity,
  JobHeartbeatEntity,
  JobScheduleEntity,
  ...Object.values(CONSUMER_SERVICES).flatMap((service) => service.entities ?? []),
];
