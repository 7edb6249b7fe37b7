import { DEAD_LETTER_STORE_GROUP } from '@app/contracts';
import { JobSchedule } from '@app/jobs';
import { SUBSCRIPTION_AWARE_ASSIGNERS } from '@app/kafka';
import { errorMessage } from '@app/logger';
import { Consumer, Kafka } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DltSource, parseDeadLetter } from '../dead-letter-message';
import { DeadLettersRepository } from '../dead-letters.repository';

export interface DeadLetterTopics {
  /** The consumer group whose dead letters these are. */
  group: string;
  dltTopic: string;
  replayTopic: string;
}

export interface DeadLetterStoreOptions {
  kafka: Kafka;
  dataSource: DataSource;
  logger: Logger;
  /** Kafka group id of the store; default `hookrail-dlq-store`. */
  groupId?: string;
  sources: DeadLetterTopics[];
  /** How often replayed rows are checked against processed_events (default 1 s). */
  resolveEveryMs?: number;
}

/**
 * Indexes every `<group>.dlt` into dead_letters, in a consumer group of its own. The offset moves only after the row
 * is written (kafkajs commits what eachMessage resolved); a redelivery finds the row and changes nothing. Beside
 * it, a short loop marks replayed rows `resolved` once their group has applied the event.
 *
 * Members of the store group may know different groups (an older process beside one that runs a newer group): each
 * DLT's partitions go only to the members that subscribe to it (`subscribedRoundRobin`), so every DLT someone knows
 * has a reader, whoever leads the group.
 */
export class DeadLetterStore {
  private consumer?: Consumer;
  private readonly resolver: JobSchedule;
  private readonly byTopic: Map<string, DeadLetterTopics>;

  constructor(private readonly options: DeadLetterStoreOptions) {
    this.byTopic = new Map(options.sources.map((source) => [source.dltTopic, source]));
    this.resolver = new JobSchedule(options.resolveEveryMs ?? 1000, () => this.resolveReplayed());
  }

  async start(): Promise<void> {
    const { kafka, logger } = this.options;
    const groupId = this.options.groupId ?? DEAD_LETTER_STORE_GROUP;
    const consumer = kafka.consumer({
      groupId,
      maxWaitTimeInMs: 500,
      partitionAssigners: SUBSCRIPTION_AWARE_ASSIGNERS,
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: [...this.byTopic.keys()], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const source = this.byTopic.get(topic)!;
        const dlt: DltSource = { topic, partition, replayTopic: source.replayTopic, group: source.group };
        const letter = parseDeadLetter(message, dlt);
        const outcome = await new DeadLettersRepository(this.options.dataSource).index(letter);
        logger.info(
          {
            eventId: letter.eventId,
            topic,
            partition,
            offset: message.offset,
            group: letter.group,
            errorClass: letter.errorClass,
            replayCount: letter.replayCount,
            outcome,
          },
          outcome === 'duplicate' ? 'dead letter already indexed' : 'dead letter indexed',
        );
      },
    });
    this.resolver.start(0);
    logger.info({ groupId, topics: [...this.byTopic.keys()] }, 'dead-letter store running');
  }

  async stop(): Promise<void> {
    await this.resolver.stop();
    await this.consumer?.disconnect();
  }

  private async resolveReplayed(): Promise<void> {
    try {
      const resolved = await new DeadLettersRepository(this.options.dataSource).resolveReplayed();
      for (const id of resolved) this.options.logger.info({ deadLetterId: id }, 'replayed dead letter resolved');
    } catch (error) {
      this.options.logger.warn({ err: errorMessage(error) }, 'could not check replayed dead letters');
    }
  }
}
