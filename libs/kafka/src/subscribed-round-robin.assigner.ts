import { AssignerProtocol, PartitionAssigner, PartitionAssigners } from 'kafkajs';

/** The protocol name members announce; a group uses it once every member offers it. */
export const SUBSCRIBED_ROUND_ROBIN = 'SubscribedRoundRobin';

export interface Subscription {
  memberId: string;
  topics: readonly string[];
}

/**
 * Each partition of every topic some member subscribes to, given to the subscriber of that topic with the fewest
 * partitions so far (ties: the lowest member id); the topics with the fewest subscribers go first, so that members who
 * can take anything take the rest. Pure; the partitions per topic come from the cluster's metadata.
 */
export function assignSubscribed(
  subscriptions: readonly Subscription[],
  partitionsOf: (topic: string) => number[],
): Map<string, Record<string, number[]>> {
  const assignment = new Map(subscriptions.map(({ memberId }) => [memberId, {} as Record<string, number[]>]));
  const load = new Map(subscriptions.map(({ memberId }) => [memberId, 0]));
  const subscribersOf = (topic: string) =>
    subscriptions
      .filter((subscription) => subscription.topics.includes(topic))
      .map(({ memberId }) => memberId)
      .sort();
  const topics = [...new Set(subscriptions.flatMap((subscription) => subscription.topics))]
    .map((topic) => ({ topic, subscribers: subscribersOf(topic) }))
    .sort((a, b) => a.subscribers.length - b.subscribers.length || a.topic.localeCompare(b.topic));
  for (const { topic, subscribers } of topics) {
    for (const partition of [...partitionsOf(topic)].sort((a, b) => a - b)) {
      const member = subscribers.reduce((least, candidate) =>
        load.get(candidate)! < load.get(least)! ? candidate : least,
      );
      (assignment.get(member)![topic] ??= []).push(partition);
      load.set(member, load.get(member)! + 1);
    }
  }
  return assignment;
}

/**
 * A round-robin assignor that gives a topic's partitions only to the members subscribed to it, as Kafka's own Java
 * assignors do. kafkajs's `RoundRobinAssigner` takes the leader's subscription for everyone's: the topics only other
 * members read go unassigned while that member leads, and a member handed a topic it does not read drops it. Members
 * of one group may then subscribe to different topics (two versions of a process during a rollout, or processes
 * configured differently) and every partition still has a reader. Members also offer kafkajs's round robin, which the
 * broker picks only while some member knows nothing else.
 */
export const subscribedRoundRobin: PartitionAssigner = ({ cluster }) => ({
  name: SUBSCRIBED_ROUND_ROBIN,
  version: 0,
  async assign({ members }) {
    const subscriptions = members.map(({ memberId, memberMetadata }) => ({
      memberId,
      topics: AssignerProtocol.MemberMetadata.decode(memberMetadata)?.topics ?? [],
    }));
    // The leader knows the partitions of its own topics only; the others' are fetched here.
    await cluster.addMultipleTargetTopics([...new Set(subscriptions.flatMap(({ topics }) => topics))]);
    const assignment = assignSubscribed(subscriptions, (topic) =>
      cluster.findTopicPartitionMetadata(topic).map(({ partitionId }) => partitionId),
    );
    return [...assignment].map(([memberId, topics]) => ({
      memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: 0,
        assignment: topics,
        userData: Buffer.alloc(0),
      }),
    }));
  },
  protocol({ topics }) {
    return {
      name: SUBSCRIBED_ROUND_ROBIN,
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }),
    };
  },
});

/** What a consumer group whose members may subscribe to different topics passes as `partitionAssigners`. */
export const SUBSCRIPTION_AWARE_ASSIGNERS: PartitionAssigner[] = [subscribedRoundRobin, PartitionAssigners.roundRobin];
