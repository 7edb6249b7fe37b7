import { TrailSource } from '../trail';
import { agentTaskTrail } from './agent-task.trail';
import { consumerGroupsTrail } from './consumer-groups.trail';
import { deadLettersTrail } from './dead-letters.trail';
import { outboxTrail } from './outbox.trail';
import { receivedTrail } from './received.trail';
import { sagaTrail } from './saga.trail';
import { webhookDeliveriesTrail } from './webhook-deliveries.trail';

/**
 * Every source of an event's trail. A feature that records something about an event adds a `<name>.trail.ts` beside
 * these and one line here. The order breaks ties between steps at the same instant (received before queued before
 * processing).
 */
export const TRAIL_SOURCES: readonly TrailSource[] = [
  receivedTrail,
  outboxTrail,
  consumerGroupsTrail,
  deadLettersTrail,
  agentTaskTrail,
  sagaTrail,
  webhookDeliveriesTrail,
];
