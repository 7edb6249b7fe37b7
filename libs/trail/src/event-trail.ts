import { findReceivedEvents, findUnreceivedEvent } from './find-events';
import { TRAIL_SOURCES } from './sources';
import { TrailContext, TrailEntry, TrailEvent, TrailSource, TrailStep } from './trail';

export interface EventTrail {
  id: string;
  source: string | null;
  senderEventId: string | null;
  type: string | null;
  aggregateId: string | null;
  receivedAt: string | null;
  matchedBy: TrailEvent['matchedBy'];
  /** Every step of the event's life that hookrail recorded, oldest first. */
  trail: TrailStep[];
}

/** What `GET /admin/events/:ref` and `hookrail trace <ref>` answer. */
export interface TrailAnswer {
  ref: string;
  /** Oldest first; several when the ref is an aggregate id (its newest events) or a sender id used by two sources. */
  events: EventTrail[];
}

/**
 * The trails of the events a ref names (event id, sender event id or aggregate id): each event's steps from every
 * trail source, merged into one timeline. Steps at the same instant keep the sources' order, then their own.
 */
export async function findTrails(
  ref: string,
  context: TrailContext,
  sources: readonly TrailSource[] = TRAIL_SOURCES,
): Promise<TrailAnswer> {
  const received = await findReceivedEvents(context.db, ref);
  const unreceived = received.length ? undefined : await findUnreceivedEvent(context.db, ref);
  const events = unreceived ? [unreceived] : received;
  return { ref, events: await Promise.all(events.map((event) => trailOf(event, context, sources))) };
}

async function trailOf(event: TrailEvent, context: TrailContext, sources: readonly TrailSource[]): Promise<EventTrail> {
  const found = await Promise.all(
    sources.map(async (source) => ({ source: source.name, entries: await source.entries(event, context) })),
  );
  return {
    id: event.id,
    source: event.source,
    senderEventId: event.senderEventId,
    type: event.type,
    aggregateId: event.aggregateId,
    receivedAt: event.receivedAt?.toISOString() ?? null,
    matchedBy: event.matchedBy,
    trail: mergeSteps(found),
  };
}

/**
 * One timeline from the sources' entries (given in the sources' order): by time; at the same instant, in the sources'
 * order, then each source's own. A step that precedes every group's processing (`beforeGroups`) is placed no later
 * than the first of them, its recorded time kept in the detail: the timeline then reads in causal order even where
 * two processes recorded them milliseconds apart.
 */
export function mergeSteps(found: Array<{ source: string; entries: TrailEntry[] }>): TrailStep[] {
  const ranked = found.flatMap(({ source, entries }, rank) =>
    entries.map((entry, index) => ({ entry: { ...entry }, source, rank, index })),
  );
  const firstGroupStep = Math.min(...ranked.filter(({ entry }) => entry.group).map(({ entry }) => entry.at.getTime()));
  for (const { entry } of ranked) {
    if (entry.beforeGroups && entry.at.getTime() > firstGroupStep) {
      entry.detail = { ...entry.detail, recordedAt: entry.at.toISOString() };
      entry.at = new Date(firstGroupStep);
    }
  }
  return ranked
    .sort((a, b) => a.entry.at.getTime() - b.entry.at.getTime() || a.rank - b.rank || a.index - b.index)
    .map(({ entry: { beforeGroups: _beforeGroups, ...entry }, source }) => ({
      ...entry,
      at: entry.at.toISOString(),
      source,
    }));
}
