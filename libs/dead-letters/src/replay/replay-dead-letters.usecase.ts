import { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { DeadLetterAudit } from '../dead-letter-audit';
import { DeadLetterFilter, describeFilter } from '../dead-letter-filter';
import { replayMessage } from '../dead-letter-message';
import { DeadLettersRepository, DeadLetterSummary } from '../dead-letters.repository';
import { chunkSize, paceDelay } from './pace';

export interface ReplayRequest {
  filter: DeadLetterFilter;
  /** Who asks, for the audit (e.g. `cli:ada`). */
  actor: string;
  /** List what would be replayed; change nothing. */
  dryRun?: boolean;
  /** Most dead letters one request replays (default 1000). */
  limit?: number;
  /** Replay messages per second (default 100). */
  ratePerSecond?: number;
}

export interface ReplayResult {
  dryRun: boolean;
  /** Dead letters in status `dead` that matched (at most `limit`). */
  matched: number;
  /** Ids sent to their group's replay topic (none on a dry run). */
  replayed: string[];
  /** On a dry run: what would be replayed. */
  candidates?: DeadLetterSummary[];
}

export const DEFAULT_REPLAY_LIMIT = 1000;
export const DEFAULT_REPLAY_RATE = 100;

/**
 * Replays dead letters to `<group>.replay`, the topic only the failing group consumes: the original key, value and
 * headers, with the replay count raised and the row's id, so that a replay that fails again comes back to the same
 * row. Works through a fixed set of ids (a replay that fails again quickly is not replayed twice by one request),
 * claiming each chunk (`dead → replaying`) before producing it and releasing the claim if the broker refuses.
 * Paced to `ratePerSecond`. The request is audited with what it replayed, also when it stopped half-way.
 */
export async function replayDeadLetters(
  dataSource: DataSource,
  producer: () => Promise<Producer>,
  request: ReplayRequest,
): Promise<ReplayResult> {
  const deadLetters = new DeadLettersRepository(dataSource);
  const ids = await deadLetters.selectIds(request.filter, 'dead', request.limit ?? DEFAULT_REPLAY_LIMIT);
  if (request.dryRun) {
    const candidates = ids.length ? await deadLetters.list({ ids }, ids.length) : [];
    return { dryRun: true, matched: ids.length, replayed: [], candidates };
  }
  const replayed: string[] = [];
  const rate = request.ratePerSecond ?? DEFAULT_REPLAY_RATE;
  const startedAt = Date.now();
  try {
    if (ids.length > 0) {
      const kafka = await producer();
      for (let start = 0; start < ids.length; start += chunkSize(rate)) {
        const delay = paceDelay(replayed.length, rate, startedAt, Date.now());
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        const claimed = await deadLetters.claimForReplay(ids.slice(start, start + chunkSize(rate)));
        if (claimed.length === 0) continue;
        try {
          await kafka.sendBatch({ acks: -1, topicMessages: byTopic(claimed) });
        } catch (error) {
          await deadLetters.releaseClaim(claimed.map((row) => row.id));
          throw error;
        }
        replayed.push(...claimed.map((row) => row.id));
      }
    }
  } finally {
    if (replayed.length > 0) {
      await new DeadLetterAudit(dataSource).record({
        actor: request.actor,
        action: 'replay',
        filter: describeFilter(request.filter),
        count: replayed.length,
        deadLetterIds: replayed,
      });
    }
  }
  return { dryRun: false, matched: ids.length, replayed };
}

function byTopic(rows: Awaited<ReturnType<DeadLettersRepository['claimForReplay']>>) {
  const topics = new Map<string, ReturnType<typeof replayMessage>[]>();
  for (const row of rows) topics.set(row.replayTopic, [...(topics.get(row.replayTopic) ?? []), replayMessage(row)]);
  return [...topics].map(([topic, messages]) => ({ topic, messages }));
}
