import { EntityManager } from 'typeorm';

// The deletes of the `webhook-deliveries-retention` job (apps/consumers); their attempts go with them by cascade.

// Finished: delivered, or failed and already on webhooks.dlt. Repeated on the DELETE so that a delivery replayed
// meanwhile stays. Probed per endpoint through (endpoint_id, created_at), so no index of its own is needed.
const FINISHED = `(state = 'delivered' OR (state = 'failed' AND dead_lettered_at IS NOT NULL)) AND created_at < $1`;

export async function deleteFinishedDeliveriesBefore(
  manager: EntityManager,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
    `WITH gone AS (
       DELETE FROM webhook_deliveries
        WHERE id IN (SELECT d.id FROM webhook_endpoints e
                      CROSS JOIN LATERAL (SELECT id FROM webhook_deliveries
                                           WHERE endpoint_id = e.id AND ${FINISHED}
                                           ORDER BY created_at LIMIT $2) d
                      LIMIT $2)
          AND ${FINISHED}
       RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [cutoff, limit],
  );
  return deleted;
}

// Waiting for a disabled endpoint since before the window: kept no longer than a finished delivery would be. Probed
// per disabled endpoint through (endpoint_id, created_at).
export async function deleteWaitingDeliveriesBefore(
  manager: EntityManager,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
    `WITH gone AS (
       DELETE FROM webhook_deliveries
        WHERE id IN (SELECT d.id FROM webhook_endpoints e
                      CROSS JOIN LATERAL (SELECT id FROM webhook_deliveries
                                           WHERE endpoint_id = e.id AND state = 'pending' AND created_at < $1
                                           ORDER BY created_at LIMIT $2) d
                      WHERE e.state = 'disabled'
                      LIMIT $2)
          AND state = 'pending' AND created_at < $1
          AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE state = 'disabled')
       RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [cutoff, limit],
  );
  return deleted;
}
