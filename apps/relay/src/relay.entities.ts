import { JobHeartbeatEntity, JobScheduleEntity } from '@app/jobs';
import { OutboxMessageEntity } from '@app/outbox';

/** The tables the relay writes: the outbox's publishing state, and its retention job's heartbeat and schedule. */
export const RELAY_ENTITIES = [OutboxMessageEntity, JobHeartbeatEntity, JobScheduleEntity];
