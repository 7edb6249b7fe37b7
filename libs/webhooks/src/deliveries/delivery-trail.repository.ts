import { DataSource, EntityManager } from 'typeorm';

export interface DeliveryTrailRow {
  id: string;
  endpoint_id: string;
  url: string;
  state: string;
  attempts: number;
  replay_count: number;
  last_error: string | null;
  created_at: Date;
  failed_at: Date | null;
}

export interface AttemptTrailRow {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  /** Null while the attempt is in flight. */
  latency_ms: number | null;
  status: number | null;
  error: string | null;
}

/** An event's deliveries, in the order they were written, and every attempt of each, for its trail. */
export async function findDeliveryTrail(
  db: DataSource | EntityManager,
  eventId: string,
): Promise<{ deliveries: DeliveryTrailRow[]; attempts: AttemptTrailRow[] }> {
  const deliveries: DeliveryTrailRow[] = await db.query(
    `SELECT d.id, d.endpoint_id, e.url, d.state, d.attempts, d.replay_count, d.last_error, d.created_at, d.failed_at
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.event_id = $1 ORDER BY d.id`,
    [eventId],
  );
  if (deliveries.length === 0) return { deliveries, attempts: [] };
  const attempts: AttemptTrailRow[] = await db.query(
    `SELECT delivery_id, attempt, started_at, latency_ms, status, error
       FROM webhook_delivery_attempts WHERE delivery_id = ANY($1::bigint[]) ORDER BY id`,
    [deliveries.map((delivery) => delivery.id)],
  );
  return { deliveries, attempts };
}
