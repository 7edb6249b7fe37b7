import { forgetProcessedEvents, recordEventStatus } from '@app/consumer-runtime';
import { EntityManager } from 'typeorm';

/**
 * A task given up on leaves its event in the state of any dead-lettered event, in the transaction that marks the
 * task dead: the group's dedupe row goes, so that a replay passes the runtime's dedupe and resets the task, and the
 * event's status for the group says `dead`.
 */
export async function giveUpEvent(
  manager: EntityManager,
  dead: { group: string; eventId: string; attempts: number; lastError: string },
): Promise<void> {
  await forgetProcessedEvents(manager, dead.group, [dead.eventId]);
  await recordEventStatus(manager, {
    group: dead.group,
    eventId: dead.eventId,
    status: 'dead',
    attempts: dead.attempts,
    lastError: dead.lastError,
  });
}
