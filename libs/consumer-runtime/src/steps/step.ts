import { CloudEvent } from '@app/contracts';
import { KafkaMessage } from 'kafkajs';
import { EntityManager } from 'typeorm';
import { ParkDecision, ParkingDecisions } from '../parking/parking-decisions';
import { PendingWrites } from '../pending-writes';
import { ProcessedEventClaims } from '../processed-events.repository';
import { HandledMessage, Liveness, ParsedMessage, Reading } from './message';
import { Failure, RetryOutcome } from './retry.middleware';

/** What became of a message in a transaction: applied or skipped as a duplicate, or parked / left by its key. */
export type Outcome = 'applied' | 'duplicate' | Exclude<ParkDecision, 'handle'>;

/** The transaction a run of messages is applied in: its manager, the rows queued for it, its dedupe claims. */
export interface HandleTransaction {
  manager: EntityManager;
  /** The events it applies, in order (`ConsumerContext.batch`). */
  events: readonly CloudEvent[];
  pending: PendingWrites;
  claims: ProcessedEventClaims;
  /** The parked keys it locked; absent in a group that parks no keys. */
  parking?: ParkingDecisions;
}

/** A step inside the transaction: one message, at its attempt, in the transaction of its run. */
export type Apply<T extends ParsedMessage = HandledMessage> = (
  item: T,
  attempt: number,
  tx: HandleTransaction,
) => Promise<Outcome>;

/** One message of a partition on its walk through the steps. */
export interface Delivery {
  topic: string;
  partition: number;
  message: KafkaMessage;
  controls: Liveness;
  /** The parse step's reading, once it is made (the batch reads every message before its fast path). */
  reading?: Reading;
  /**
   * A failure the message had before: in its batch's transaction (`waited: false`, the retry step decides it), or
   * before its partition was handed back (`waited: true`, decided, and its wait is over).
   */
  from?: { failure: Failure; waited: boolean };
  /** A pre-check found its event applied by this group already: the handler is not run unless the transaction says otherwise. */
  applied?: boolean;
  /** The group gave up on it and its dead letter (or its key's parking) was not taken: only that is tried again. */
  givingUp?: Failure;
}

/** What the parse and retry steps make of a message. */
export type MessageOutcome = RetryOutcome<Outcome | 'ignored'>;

export type MessageHandler = (delivery: Delivery) => Promise<MessageOutcome>;

/**
 * Where a message's walk ends, before its mode settles it: `done`, its offset may move past it; `waiting`, it stays
 * uncommitted until `retryAt` (carrying `failure` on, when there is one to retry, or `givingUp`, when only its dead
 * letter is left to take); `interrupted`, the consumer is stopping.
 */
export type Settled =
  | { kind: 'done'; value: Outcome | 'ignored' | 'dead-lettered' }
  | { kind: 'waiting'; retryAt: number; failure?: Failure; deadlineAt?: number; givingUp?: Failure }
  | { kind: 'interrupted'; failure?: Failure };

/** One attempt at a message: the steps the retry step repeats. */
export type Attempt<T> = (handled: HandledMessage, attempt: number, delivery: Delivery) => Promise<T>;

/** A message's walk up to its mode's settle step. */
export type Walk = (delivery: Delivery) => Promise<Settled>;

/** The last step of a walk, one per mode: what the partition (by batch) or the key (by key) does with the result. */
export type SettleStep<D extends Delivery, S> = (next: Walk) => (delivery: D) => Promise<S>;
