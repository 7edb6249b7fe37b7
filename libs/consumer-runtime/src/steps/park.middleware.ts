import { ClaimedParkedEvent } from '@app/dead-letters';
import { EntityManager } from 'typeorm';
import { KeyParking } from '../parking/key-parking';
import { ParkingDecisions } from '../parking/parking-decisions';
import { ParsedMessage } from './message';
import { Apply } from './step';

/**
 * The park step, first in the transaction (groups with `keyOrder: 'park'`): a message whose key is parked is stored
 * behind the key's dead letter instead of going on, and an applied replay of a key's head lets the key's next parked
 * event go. Without parking the message goes on as it is.
 */
export function park<T extends ParsedMessage>(next: Apply<T>): Apply<T> {
  return async (item, attempt, tx) => {
    const decision = tx.parking?.decide(item, tx.claims) ?? 'handle';
    if (decision !== 'handle') return decision;
    const outcome = await next(item, attempt, tx);
    tx.parking?.handled(item);
    return outcome;
  };
}

/**
 * The parked keys among these messages, locked for the transaction (nothing for a group that does not park); for
 * update when one of them comes from the replay topic (its apply may move its key's head on).
 */
export async function lockParkedKeys(
  parking: KeyParking | undefined,
  manager: EntityManager,
  items: readonly ParsedMessage[],
): Promise<ParkingDecisions | undefined> {
  if (!parking) return undefined;
  const forUpdate = items.some(({ topic }) => topic === parking.deps.replayTopic);
  return parking.begin(
    manager,
    items.map(({ message }) => message),
    forUpdate,
  );
}

/** After the commit: what was parked is logged, and the parked events the commit claimed go to the replay topic. */
export async function parkingCommitted(
  parking: KeyParking | undefined,
  decisions: ParkingDecisions | undefined,
  replays: ClaimedParkedEvent[],
): Promise<void> {
  decisions?.logParked();
  if (replays.length > 0) await parking!.replay(replays);
}
