/**
 * Calls `deleteBatch` (one short DELETE of at most `batchSize` rows, returning how many it deleted) until a batch
 * comes back short, so that no statement holds many row locks; returns the total.
 */
export async function deleteInBatches(
  batchSize: number,
  deleteBatch: (limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
