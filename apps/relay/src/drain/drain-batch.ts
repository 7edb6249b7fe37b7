import { OutboxRow } from '@app/outbox';
import { Logger } from 'pino';
import { LaneSession } from '../lanes/lane-session';
import { RelayMetrics } from '../metrics/relay.metrics';
import { isPermanentPublishError, KafkaPublisher } from '../publish/kafka-publisher';
import { publishInOrder } from '../publish/publish-in-order';

export interface DrainSettings {
  batchSize: number;
  maxRequestBytes: number;
}

export interface DrainResult {
  claimed: number;
  published: number;
  parked: number;
}

/** A transient publish failure: the batch was rolled back and will be retried. */
export class PublishFailedError extends Error {
  override name = 'PublishFailedError';
  constructor(
    readonly rows: OutboxRow[],
    cause: unknown,
  ) {
    super(`publish failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * One claim → publish → mark transaction on the lane connection: the rows stay locked until the broker acknowledged
 * them and they are marked published; any transient failure rolls everything back (the rows are published again
 * later, perhaps twice, never lost).
 */
export async function drainBatch(
  session: LaneSession,
  lanes: number[],
  publisher: KafkaPublisher,
  metrics: RelayMetrics,
  logger: Logger,
  settings: DrainSettings,
): Promise<DrainResult> {
  return session.claimTransaction(lanes, settings.batchSize, async (rows) => {
    if (rows.length === 0) return { published: [], result: { claimed: 0, published: 0, parked: 0 } };
    metrics.batchSize.observe(rows.length);

    const send = async (chunk: OutboxRow[]) => {
      const stop = metrics.sendDuration.startTimer();
      await publisher.send(chunk);
      stop();
      const ackedAt = Date.now();
      const perTopic = new Map<string, number>();
      for (const row of chunk) {
        perTopic.set(row.topic, (perTopic.get(row.topic) ?? 0) + 1);
        metrics.publishLatency.observe((ackedAt - row.createdAt.getTime()) / 1000);
      }
      for (const [topic, count] of perTopic) metrics.published.inc({ topic }, count);
    };
    let outcome;
    try {
      outcome = await publishInOrder(rows, send, {
        maxRequestBytes: settings.maxRequestBytes,
        isPermanent: isPermanentPublishError,
      });
    } catch (error) {
      throw new PublishFailedError(rows, error);
    }

    if (outcome.parked.length) {
      await session.outbox.markParked(
        outcome.parked.map(({ row, error }) => ({ id: row.id, error: `${error.name}: ${error.message}` })),
      );
      metrics.failures.inc({ kind: 'rejected' }, outcome.parked.length);
      for (const { row, error } of outcome.parked) {
        logger.error(
          {
            eventId: row.eventId,
            topic: row.topic,
            key: row.key,
            outboxId: row.id,
            lane: row.lane,
            err: error.message,
            held: outcome.held.length,
          },
          'broker rejected an outbox row for good; parked it, later rows of its key wait behind it',
        );
      }
    }
    return {
      published: outcome.published.map((row) => row.id),
      result: { claimed: rows.length, published: outcome.published.length, parked: outcome.parked.length },
    };
  });
}
