import { createHash } from 'node:crypto';

/** A fixed namespace, so that the ids are hookrail's own (RFC 9562 name-based, SHA-1: version 5). */
const NAMESPACE = Buffer.from('6f1d3c2a8e5b4f7d9a0c1b2e3d4f5a6b', 'hex');

/**
 * The id of the dead letter of a message in a group, derived from the group and the message's original coordinates:
 * every dead letter of that message (a redelivery after a crash dead-letters it again) names the same row, and the
 * runtime knows the id before the dead-letter store has indexed the message, so it can park the key behind it.
 */
export function deadLetterIdOf(group: string, topic: string, partition: number, offset: string): string {
  const hash = createHash('sha1')
    .update(NAMESPACE)
    .update(`${group}\u0000${topic}\u0000${partition}\u0000${offset}`)
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
