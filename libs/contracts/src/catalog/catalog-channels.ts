import { declaredTopicOf, EVENT_TOPIC_ROUTES } from '../event-topics';
import { dltTopic, replayTopic, TOPICS } from '../topics';

/** The team that answers for a group's dead letters and alerts. */
export interface CatalogOwner {
  team: string;
  contact: string;
}

/** A consumer group as the catalogue describes it: what it reads, which event types it handles, who owns it. */
export interface CatalogGroup {
  group: string;
  topics: readonly string[];
  owner: CatalogOwner;
  /** The event types of its `@EventPattern` handlers. */
  handles: readonly string[];
}

export interface ChannelConsumer {
  group: string;
  owner?: CatalogOwner;
  /** The types on this channel the group handles (it ignores the others). */
  handles: string[];
}

export interface CatalogChannel {
  topic: string;
  kind: 'events' | 'dead-letters' | 'replays';
  /** Registered event types published on it (on a replay topic: the types its group handles). */
  types: string[];
  /** For a dead-letter or replay topic: the group it belongs to. */
  group?: string;
  owner?: CatalogOwner;
  consumers: ChannelConsumer[];
}

/**
 * The topics of an event type: its declared route (EVENT_TOPIC_ROUTES); else the topics every group that handles it
 * reads, less the topics routes give to other types; else `hookrail.inbound`, where the ingress sends it.
 */
export function topicsOfType(type: string, groups: readonly CatalogGroup[]): string[] {
  const declared = declaredTopicOf(type);
  if (declared) return [declared];
  const handlers = groups.filter((group) => group.handles.includes(type));
  if (handlers.length === 0) return [TOPICS.inbound];
  const routed = new Set(EVENT_TOPIC_ROUTES.map(({ topic }) => topic));
  const common = handlers
    .map((group) => group.topics.filter((topic) => !routed.has(topic)))
    .reduce((left, right) => left.filter((topic) => right.includes(topic)));
  return common.length > 0 ? [...common].sort() : [...new Set(handlers.flatMap((group) => group.topics))].sort();
}

/**
 * Every topic hookrail uses, in a stable order: the event topics (with their types and the groups that read them),
 * then per group its dead-letter topic (read by the dead-letter store) and its replay topic (read by it alone).
 */
export function catalogChannels(
  types: readonly string[],
  groups: readonly CatalogGroup[],
  deadLetterStoreGroup: string,
): CatalogChannel[] {
  const typesByTopic = new Map<string, string[]>();
  const on = (topic: string) => typesByTopic.get(topic) ?? typesByTopic.set(topic, []).get(topic)!;
  for (const topic of [...Object.values(TOPICS), ...groups.flatMap((group) => group.topics)]) on(topic);
  for (const type of [...types].sort()) for (const topic of topicsOfType(type, groups)) on(topic).push(type);

  const events: CatalogChannel[] = [...typesByTopic.keys()].sort().map((topic) => {
    const onTopic = typesByTopic.get(topic)!;
    return {
      topic,
      kind: 'events',
      types: onTopic,
      consumers: groups
        .filter((group) => group.topics.includes(topic))
        .map((group) => ({
          group: group.group,
          owner: group.owner,
          handles: group.handles.filter((type) => onTopic.includes(type)),
        })),
    };
  });
  const perGroup = [...groups]
    .sort((a, b) => a.group.localeCompare(b.group))
    .flatMap((group): CatalogChannel[] => {
      const handled = group.handles.filter((type) => types.includes(type)).sort();
      return [
        {
          topic: dltTopic(group.group),
          kind: 'dead-letters',
          types: [],
          group: group.group,
          owner: group.owner,
          consumers: [{ group: deadLetterStoreGroup, handles: [] }],
        },
        {
          topic: replayTopic(group.group),
          kind: 'replays',
          types: handled,
          group: group.group,
          owner: group.owner,
          consumers: [{ group: group.group, owner: group.owner, handles: handled }],
        },
      ];
    });
  return [...events, ...perGroup];
}
