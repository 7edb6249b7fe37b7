import { KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { errorMessage } from '../classify-error';
import { isDeadAlready } from '../consumer-event-status.repository';
import { KeyParking } from '../parking/key-parking';
import { DeadLetterProducer } from './dead-letter.producer';
import { identityOf, replayCountOf } from './parse-and-validate.middleware';
import { Failure } from './retry.middleware';
import { Delivery, MessageHandler, MessageOutcome, Settled } from './step';

/** How soon a message tries again when the database did not take its key's parking. */
const PARK_RETRY_MS = 1_000;

/** The message a group gave up on: where it was read, its event id and type when it parsed. */
export interface GivenUpMessage {
  topic: string;
  partition: number;
  message: KafkaMessage;
  eventId?: string;
  type: string;
}

/** `done`: the offset may move past the message. Otherwise it stays, and the message is tried again at `retryAt`. */
export type GiveUpResult = { done: true } | { done: false; retryAt: number };

/**
 * What happens to a message the group gives up on (poison at once, an unknown error after its attempts, a down
 * dependency after the retry ceiling): another copy of an event already dead-lettered is let go; otherwise the dead
 * letter is produced and, in a group that parks keys, the key is parked behind it before the offset may move. When
 * the broker or the database does not take it, the message waits and the whole step runs again.
 */
export class DeadLetterStep {
  constructor(
    private readonly deps: {
      group: string;
      dataSource: DataSource;
      logger: Logger;
      producer: DeadLetterProducer;
      parking?: KeyParking;
    },
  ) {}

  async giveUp(source: GivenUpMessage, failure: Failure): Promise<GiveUpResult> {
    const { topic, partition, message, eventId } = source;
    const { producer, parking, group, logger, dataSource } = this.deps;
    let deadAlready: boolean;
    try {
      deadAlready = !!eventId && replayCountOf(message) === 0 && (await isDeadAlready(dataSource, group, eventId));
    } catch (error) {
      logger.error(
        { group, eventId, topic, partition, offset: message.offset, err: errorMessage(error) },
        'could not tell whether the event is dead-lettered already; offset not committed, tried again later',
      );
      return { done: false, retryAt: Date.now() + producer.retryDelayMs() };
    }
    if (deadAlready) {
      // Another copy of an event this group already gave up on (the relay publishes at least once): its dead
      // letter is in the store, and a second one would have the operator replay the same event twice.
      logger.warn(
        { group, eventId, topic, partition, offset: message.offset },
        'a copy of an event already dead-lettered; not dead-lettered again',
      );
      return { done: true };
    }
    const identity = parking?.identify(source);
    const deadLetterId = identity && !identity.replay ? identity.id : undefined;
    if (!(await producer.deadLetter({ ...source, deadLetterId }, failure)))
      return { done: false, retryAt: Date.now() + producer.retryDelayMs() };
    // The key is parked before the offset moves past its dead letter, so that its next event finds it parked.
    if (!parking || (await parking.deadLettered(source, identity!))) return { done: true };
    return { done: false, retryAt: Date.now() + PARK_RETRY_MS };
  }
}

/**
 * The dead-letter step: a message the steps before it gave up on is dead-lettered here; a dead letter the broker or
 * the database did not take makes the message wait (`givingUp`: a mode that keeps it tries only the dead letter
 * again; the batch mode's partition brings the message back through the whole walk).
 */
export function deadLetter(step: Pick<DeadLetterStep, 'giveUp'>) {
  return (next: MessageHandler) =>
    async (delivery: Delivery): Promise<Settled> => {
      const outcome: MessageOutcome = delivery.givingUp
        ? { kind: 'gave-up', failure: delivery.givingUp }
        : await next(delivery);
      if (outcome.kind !== 'gave-up') return outcome;
      const { topic, partition, message } = delivery;
      const given = { topic, partition, message, ...identityOf(delivery.reading!) };
      const result = await step.giveUp(given, outcome.failure);
      if (result.done) return { kind: 'done', value: 'dead-lettered' };
      return { kind: 'waiting', retryAt: result.retryAt, givingUp: outcome.failure };
    };
}
