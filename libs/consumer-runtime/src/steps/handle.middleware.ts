import { CloudEvent } from '@app/contracts';
import { KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { ConsumerMetrics } from '../consumer-metrics';
import { MessageContext } from '../message-context';
import { PendingWrites } from '../pending-writes';
import { ProcessedEventClaims } from '../processed-events.repository';
import { DedupeOutcome } from './dedupe.middleware';

/** A message that parsed as an event of a type its group handles, and where it was read. */
export interface ParsedMessage {
  topic: string;
  partition: number;
  message: KafkaMessage;
  event: CloudEvent;
  replayCount: number;
}

/** A parsed message on its way to its handler (already wrapped by the dedupe step). */
export interface HandledMessage extends ParsedMessage {
  apply(event: CloudEvent, ctx: MessageContext, claims: ProcessedEventClaims): Promise<DedupeOutcome>;
}

/** The transaction a run of messages is applied in: its manager, the rows queued for it, its dedupe claims. */
export interface HandleTransaction {
  manager: EntityManager;
  /** The events it applies, in order (`ConsumerContext.batch`). */
  events: readonly CloudEvent[];
  pending: PendingWrites;
  claims: ProcessedEventClaims;
}

/**
 * The handle step: runs the event's handler behind its dedupe, inside the transaction, with a context that names
 * where the message came from (its logger carries eventId, topic, partition, offset and group); timed per attempt.
 */
export class HandleStep {
  constructor(private readonly deps: { group: string; logger: Logger; metrics: ConsumerMetrics }) {}

  async handle(item: HandledMessage, attempt: number, tx: HandleTransaction): Promise<DedupeOutcome> {
    const { group, logger, metrics } = this.deps;
    const ctx = new MessageContext(
      group,
      item.topic,
      item.partition,
      item.message.offset,
      item.event.id,
      attempt,
      item.replayCount,
      tx.manager,
      tx.events,
      tx.pending,
      logger,
    );
    const stop = metrics.handlerSeconds.startTimer({ group, type: item.event.type });
    try {
      return await item.apply(item.event, ctx, tx.claims);
    } finally {
      stop();
    }
  }
}
