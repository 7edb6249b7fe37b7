import { Admin } from 'kafkajs';

export interface PartitionLag {
  groupId: string;
  topic: string;
  partition: number;
  /** The group's committed offset (-1: nothing committed yet). */
  committed: number;
  /** The partition's end (high watermark). */
  end: number;
  /** Messages the group still has to read. */
  lag: number;
}

/**
 * Lag per consumer group, topic and partition: the partition's end minus the group's committed offset (from the
 * start of the log when the group has committed nothing). A group that never committed anything has no rows.
 */
export async function findConsumerLag(admin: Admin, groupIds: string[]): Promise<PartitionLag[]> {
  const result: PartitionLag[] = [];
  const ends = new Map<string, Array<{ partition: number; high: string; low: string }>>();
  for (const groupId of groupIds) {
    const topics = await admin.fetchOffsets({ groupId });
    for (const { topic, partitions } of topics) {
      if (!ends.has(topic)) ends.set(topic, await admin.fetchTopicOffsets(topic).catch(() => []));
      for (const { partition, offset } of partitions) {
        const end = ends.get(topic)!.find((entry) => entry.partition === partition);
        if (!end) continue;
        const committed = Number(offset);
        const from = committed >= 0 ? committed : Number(end.low);
        result.push({
          groupId,
          topic,
          partition,
          committed,
          end: Number(end.high),
          lag: Math.max(0, Number(end.high) - from),
        });
      }
    }
  }
  return result.sort(
    (a, b) => a.groupId.localeCompare(b.groupId) || a.topic.localeCompare(b.topic) || a.partition - b.partition,
  );
}
