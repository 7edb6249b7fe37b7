// The whole schema, one list. Each table is owned by the app or lib that holds its entity (docs/architecture.md);
// this list is the composition root that migrations and the drift check compare against.
import { OutboxMessageEntity } from '@app/outbox';
import { InboundEventEntity } from '../../../apps/ingress/src/events/inbound-event.entity';

export const ENTITIES = [InboundEventEntity, OutboxMessageEntity];
