import { managerRows } from '@app/db';
import { OutboxRepository } from '@app/outbox';
import { Admin, Partitioners } from 'kafkajs';
import { TrailEntry, TrailSource } from '../trail';

/**
 * The event's outbox row: queued with the event, published when the broker acknowledged it (topic, and the partition
 * its key goes to, as the relay's producer computes it), or parked when the broker rejected it for good. The relay
 * does not store offsets; the dead letter and the agent task show the exact position where they have it. An event
 * whose row is gone was published and pruned by retention.
 */
export const outboxTrail: TrailSource = {
  name: 'outbox',
  async entries(event, { db, kafkaAdmin }) {
    const rows = await new OutboxRepository(managerRows(db)).rowsOfEvent(event.id);
    if (rows.length === 0) {
      return event.receivedAt
        ? [
            {
              at: event.receivedAt,
              step: 'published',
              level: 'ok',
              summary: 'published (its outbox row has since been pruned by retention, with the time it went out)',
              detail: { pruned: true },
            },
          ]
        : [];
    }
    const entries: TrailEntry[] = [];
    for (const row of rows) {
      entries.push({
        at: row.createdAt,
        step: 'queued',
        level: 'info',
        beforeGroups: true,
        summary: `queued in the outbox for ${row.topic} (key ${row.key}, lane ${row.lane})`,
        detail: { outboxId: row.id, topic: row.topic, key: row.key, lane: row.lane },
      });
      if (row.publishedAt) {
        const partition = kafkaAdmin ? await partitionOf(kafkaAdmin, row.topic, row.key) : undefined;
        entries.push({
          at: row.publishedAt,
          step: 'published',
          level: 'ok',
          beforeGroups: true,
          summary: `published to ${row.topic}${partition === undefined ? '' : ` partition ${partition}`}`,
          detail: { topic: row.topic, partition: partition ?? null, key: row.key, attempts: row.attempts },
        });
      } else if (row.parkedAt) {
        entries.push({
          at: row.parkedAt,
          step: 'parked',
          level: 'error',
          summary: `parked: the broker rejected it for good (${row.lastError ?? 'no reason given'}); later events of its key wait`,
          detail: { topic: row.topic, key: row.key, attempts: row.attempts, lastError: row.lastError },
        });
      } else if (row.lastError) {
        entries.push({
          at: new Date(),
          step: 'publishing',
          level: 'warn',
          summary: `not published yet after ${row.attempts} attempt(s): ${row.lastError}`,
          detail: { topic: row.topic, attempts: row.attempts, lastError: row.lastError },
        });
      }
    }
    return entries;
  },
};

/** The partition the producer's default partitioner (murmur2 of the key, as the Java client) picks; undefined if unknown. */
async function partitionOf(kafkaAdmin: () => Promise<Admin>, topic: string, key: string): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const lookup = kafkaAdmin().then(async (admin) => {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const partitionMetadata = topics[0]?.partitions ?? [];
    if (partitionMetadata.length === 0) return undefined;
    return Partitioners.DefaultPartitioner()({ topic, partitionMetadata, message: { key, value: null } });
  });
  lookup.catch(() => undefined);
  try {
    return await Promise.race([
      lookup,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 2000))),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
