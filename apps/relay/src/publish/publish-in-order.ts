import { OutboxRow } from '@app/outbox';

export interface PublishOutcome {
  /** Rows the broker acknowledged. */
  published: OutboxRow[];
  /** Rows the broker rejected for good, with its reason: the caller parks them. */
  parked: Array<{ row: OutboxRow; error: Error }>;
  /** Later rows of a parked row's key: not sent, so that the key's order holds; they wait behind it. */
  held: OutboxRow[];
}

export interface PublishOptions {
  /** Rows per produce request are cut so that their payload stays below this many bytes. */
  maxRequestBytes: number;
  /** True for an error that retrying the same message can never fix (e.g. too large). */
  isPermanent: (error: unknown) => boolean;
}

/** Approximate wire size of a row: key, value and headers. */
export function rowBytes(row: OutboxRow): number {
  let bytes = Buffer.byteLength(row.key) + Buffer.byteLength(row.value) + 64;
  for (const [name, value] of Object.entries(row.headers))
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value) + 8;
  return bytes;
}

/** Consecutive slices of `rows`, each below `maxBytes` (a row larger than that goes alone). */
export function chunkBySize(rows: OutboxRow[], maxBytes: number): OutboxRow[][] {
  const chunks: OutboxRow[][] = [];
  let current: OutboxRow[] = [];
  let size = 0;
  for (const row of rows) {
    const bytes = rowBytes(row);
    if (current.length && size + bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(row);
    size += bytes;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/**
 * Sends `rows` (ordered by id) in consecutive requests, so that each key's messages reach the broker in order.
 * A transient error propagates (the caller rolls back and retries everything). A permanent error is narrowed down
 * by halving the request until the one row that causes it is found; that row is parked, and every later row of
 * the same lane and key is held back, never sent after it. The other rows go on.
 * A request that failed may have been written in part (other partitions), so narrowing can publish a row twice:
 * at-least-once, as everywhere else.
 */
export async function publishInOrder(
  rows: OutboxRow[],
  send: (rows: OutboxRow[]) => Promise<void>,
  options: PublishOptions,
): Promise<PublishOutcome> {
  const outcome: PublishOutcome = { published: [], parked: [], held: [] };
  const blocked = new Set<string>();
  const blockKey = (row: OutboxRow) => `${row.lane}\u0000${row.key}`;

  const attempt = async (chunk: OutboxRow[]): Promise<void> => {
    const sendable = chunk.filter((row) => !blocked.has(blockKey(row)));
    outcome.held.push(...chunk.filter((row) => blocked.has(blockKey(row))));
    if (sendable.length === 0) return;
    try {
      await send(sendable);
      outcome.published.push(...sendable);
    } catch (error) {
      if (!options.isPermanent(error)) throw error;
      if (sendable.length === 1) {
        outcome.parked.push({ row: sendable[0], error: error instanceof Error ? error : new Error(String(error)) });
        blocked.add(blockKey(sendable[0]));
        return;
      }
      const middle = Math.ceil(sendable.length / 2);
      await attempt(sendable.slice(0, middle));
      await attempt(sendable.slice(middle));
    }
  };

  for (const chunk of chunkBySize(rows, options.maxRequestBytes)) await attempt(chunk);
  return outcome;
}
