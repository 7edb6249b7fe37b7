/** The outbox is split into lanes by a hash of the key; one relay at a time drains a lane, which keeps key order. */
export const OUTBOX_LANES = 64;

/** FNV-1a (32 bit) of the key, mod the lane count: stable across processes and versions. */
export function laneOf(key: string, lanes = OUTBOX_LANES): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % lanes;
}
