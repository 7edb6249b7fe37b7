/** One partition's lag as `hookrail lag` reads it. */
export interface PartitionLagRow {
  groupId: string;
  worksBy: string;
  topic: string;
  partition: number;
  lag: number;
}

/** One line per group and topic: the lag of all its partitions, the worst partition and its lag. */
export interface TopicLagRow {
  groupId: string;
  worksBy: string;
  topic: string;
  partitions: number;
  lag: number;
  worstPartition: number;
  worstLag: number;
}

/** The partitions of each group and topic folded into one line, in the order they first appear. */
export function summarizeLag(rows: PartitionLagRow[]): TopicLagRow[] {
  const lines = new Map<string, TopicLagRow>();
  for (const row of rows) {
    const key = `${row.groupId}\u0000${row.topic}`;
    const line = lines.get(key);
    if (!line) {
      lines.set(key, {
        groupId: row.groupId,
        worksBy: row.worksBy,
        topic: row.topic,
        partitions: 1,
        lag: row.lag,
        worstPartition: row.partition,
        worstLag: row.lag,
      });
      continue;
    }
    line.partitions++;
    line.lag += row.lag;
    if (row.lag > line.worstLag) [line.worstPartition, line.worstLag] = [row.partition, row.lag];
  }
  return [...lines.values()];
}
