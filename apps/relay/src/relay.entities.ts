import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs/entities';
import { OutboxMessageEntity } from '@app/outbox/entities';

/**
 * The tables the relay writes: the outbox's publishing state, and its retention job's heartbeat and schedule. The
 * relay itself runs on plain pg pools, without TypeORM; this list joins the schema for the drift check.
 */
export const RELAY_ENTITIES = [OutboxMessageEntity, JobHeartbeatEntity, JobScheduleEntity];
