import { JobHeartbeatEntity } from '@app/jobs';
import { OutboxMessageEntity } from '@app/outbox';

/** The tables the relay writes: the outbox's publishing state, and its retention job's heartbeat. */
export const RELAY_ENTITIES = [OutboxMessageEntity, JobHeartbeatEntity];
