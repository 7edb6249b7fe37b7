import { ClaimedParkedEvent } from '@app/dead-letters';
import { KafkaMessage } from 'kafkajs';
import { EntityManager } from 'typeorm';
import { KeyParking } from '../parking/key-parking';
import { ParkDecision, ParkingDecisions } from '../parking/parking-decisions';
import { DedupeOutcome } from './dedupe.middleware';
import { HandleTransaction, ParsedMessage } from './handle.middleware';

/** What became of a message in a transaction: applied or skipped as a duplicate, or parked / left by its key. */
export type Outcome = DedupeOutcome | Exclude<ParkDecision, 'handle'>;

/**
 * The park step, around the handle step in the same transaction (groups with `keyOrder: 'park'`): a message whose key
 * is parked is stored behind the key's dead letter instead of being handled, and an applied replay of a key's head
 * lets the key's next parked event go. Without parking it is the handle step alone.
 */
export class ParkStep<T extends ParsedMessage> {
  constructor(
    private readonly handleStep: { handle(item: T, attempt: number, tx: HandleTransaction): Promise<DedupeOutcome> },
    private readonly parking?: KeyParking,
  ) {}

  /**
   * The parked keys among these messages, locked for the transaction (nothing for a group that does not park); for
   * update when one of them comes from the replay topic (its apply may move its key's head on).
   */
  begin(
    manager: EntityManager,
    messages: ReadonlyArray<{ topic: string; message: KafkaMessage }>,
  ): Promise<ParkingDecisions> | undefined {
    const { parking } = this;
    const forUpdate = messages.some(({ topic }) => topic === parking?.deps.replayTopic);
    return parking?.begin(
      manager,
      messages.map(({ message }) => message),
      forUpdate,
    );
  }

  async handle(
    handled: T,
    attempt: number,
    tx: HandleTransaction,
    decisions: ParkingDecisions | undefined,
  ): Promise<Outcome> {
    const decision = decisions?.decide(handled, tx.claims) ?? 'handle';
    if (decision !== 'handle') return decision;
    const outcome = await this.handleStep.handle(handled, attempt, tx);
    decisions?.handled(handled);
    return outcome;
  }

  /** After the commit: what was parked is logged, and the parked events the commit claimed go to the replay topic. */
  async committed(decisions: ParkingDecisions | undefined, replays: ClaimedParkedEvent[]): Promise<void> {
    decisions?.logParked();
    if (replays.length > 0) await this.parking!.replay(replays);
  }
}
