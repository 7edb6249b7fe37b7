import { Admin, AssignerProtocol, GroupDescription } from 'kafkajs';

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

/** A group to measure, with the topics it reads as far as the caller knows them (what its process declared). */
export interface LagTarget {
  groupId: string;
  topics?: readonly string[];
}

/**
 * Lag per consumer group, topic and partition: the messages the group still has to read. A partition on which the
 * group has committed nothing counts from the start of its log, where a group that subscribes from the beginning
 * (every hookrail group) starts reading; so does one whose committed offset the topic's retention has passed. A
 * group's topics are those given, those its members subscribe to now and those it has committed on (topics that do
 * not exist are left out), so a group that never committed, or committed on some partitions only, counts in full.
 */
export async function findConsumerLag(
  admin: Admin,
  targets: ReadonlyArray<string | LagTarget>,
): Promise<PartitionLag[]> {
  const groups = targets.map((target) =>
    typeof target === 'string'
      ? { groupId: target, topics: [] }
      : { groupId: target.groupId, topics: target.topics ?? [] },
  );
  if (groups.length === 0) return [];
  const [existing, described] = await Promise.all([
    admin.listTopics(),
    admin.describeGroups(groups.map(({ groupId }) => groupId)),
  ]);
  const exists = new Set(existing);
  const subscribed = new Map(described.groups.map((group) => [group.groupId, subscribedTopics(group)]));
  const ends = new Map<string, ReturnType<Admin['fetchTopicOffsets']>>();
  const endsOf = (topic: string) => {
    if (!ends.has(topic)) ends.set(topic, admin.fetchTopicOffsets(topic));
    return ends.get(topic)!;
  };

  const perGroup = await Promise.all(
    groups.map(async ({ groupId, topics: declared }) => {
      const committedOn = (await admin.fetchOffsets({ groupId })).map(({ topic }) => topic);
      const topics = [...new Set([...declared, ...(subscribed.get(groupId) ?? []), ...committedOn])]
        .filter((topic) => exists.has(topic))
        .sort();
      if (topics.length === 0) return [];
      const rows: PartitionLag[] = [];
      for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics })) {
        const offsets = await endsOf(topic);
        for (const { partition, offset } of partitions) {
          const bounds = offsets.find((entry) => entry.partition === partition);
          if (!bounds) continue;
          const committed = Number(offset);
          const start = Number(bounds.low);
          const end = Number(bounds.high);
          const from = committed >= 0 ? Math.max(committed, start) : start;
          rows.push({ groupId, topic, partition, committed, end, lag: Math.max(0, end - from) });
        }
      }
      return rows;
    }),
  );
  return perGroup
    .flat()
    .sort((a, b) => a.groupId.localeCompare(b.groupId) || a.topic.localeCompare(b.topic) || a.partition - b.partition);
}

/** The topics the group's members subscribe to now (none while no member is in the group). */
function subscribedTopics(group: GroupDescription): string[] {
  if (group.protocolType !== 'consumer') return [];
  return group.members.flatMap((member) => {
    try {
      return AssignerProtocol.MemberMetadata.decode(member.memberMetadata)?.topics ?? [];
    } catch {
      return [];
    }
  });
}
