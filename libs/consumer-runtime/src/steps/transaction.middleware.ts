import { ClaimedParkedEvent } from '@app/dead-letters';
import { DataSource } from 'typeorm';
import { KeyParking } from '../parking/key-parking';
import { ParkingDecisions } from '../parking/parking-decisions';
import { PendingWrites, WrittenRows } from '../pending-writes';
import { ProcessedEventClaims } from '../processed-events.repository';
import { HandledMessage, ParsedMessage } from './message';
import { lockParkedKeys, parkingCommitted } from './park.middleware';
import { Apply, HandleTransaction } from './step';

export interface TransactionDeps {
  group: string;
  dataSource: DataSource;
  parking?: KeyParking;
  /** Runs after every database commit and before the offset commit, with what its handlers wrote. */
  afterDbCommit?: (written: WrittenRows) => void;
}

/**
 * One transaction for a run of messages: the dedupe rows of their events claimed in one insert and their parked keys
 * locked, then `body` applies them; the rows their handlers queued are written, parked events stored, and the claims
 * not taken given back before it commits. After the commit, what was parked is logged and freed keys replayed.
 */
export async function inTransaction<R>(
  deps: TransactionDeps,
  items: readonly ParsedMessage[],
  body: (tx: HandleTransaction) => Promise<R>,
): Promise<R> {
  const { dataSource, group, parking } = deps;
  let decisions: ParkingDecisions | undefined;
  let replays: ClaimedParkedEvent[] = [];
  const pending = new PendingWrites();
  const result = await dataSource.transaction(async (manager) => {
    const events = items.map((item) => item.event);
    const claims = await ProcessedEventClaims.claim(
      manager,
      group,
      events.map((event) => event.id),
    );
    decisions = await lockParkedKeys(parking, manager, items);
    const tx: HandleTransaction = { manager, events, pending, claims, parking: decisions };
    const result = await body(tx);
    await tx.pending.flush(manager);
    replays = (await decisions?.finish(manager)) ?? [];
    // The events not reached, and the parked ones, give their dedupe rows back: they were not applied.
    await claims.releaseUnused(manager);
    return result;
  });
  deps.afterDbCommit?.(pending);
  await parkingCommitted(parking, decisions, replays);
  return result;
}

/** The attempt the retry step repeats: the message alone, through `apply`, in a transaction of its own. */
export function ownTransaction(deps: TransactionDeps) {
  return (apply: Apply) => (handled: HandledMessage, attempt: number) =>
    inTransaction(deps, [handled], (tx) => apply(handled, attempt, tx));
}
