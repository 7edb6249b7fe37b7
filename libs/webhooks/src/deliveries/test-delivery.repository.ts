import { DataSource, EntityManager } from 'typeorm';
import { ownedBy, updatedRows } from '../endpoints/webhook-endpoints.repository';

export interface TestDelivery {
  endpointId: string;
  /** The endpoint's customer (null: any endpoint, for the operator). */
  customerId: string | null;
  eventId: string;
  eventType: string;
  payload: string;
}

/**
 * One delivery for one endpoint only, due now, that the workers send like any other: returns its id, or undefined
 * when the endpoint is not found (for that customer).
 */
export async function insertTestDelivery(
  db: DataSource | EntityManager,
  test: TestDelivery,
): Promise<string | undefined> {
  const [row] = updatedRows(
    await db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, ordered,
                                       payload, source_topic, source_partition, source_offset)
       SELECT e.id, $3, $4, 'hookrail', now(), $3, e.ordered, $5, 'hookrail.test', 0, '0'
         FROM webhook_endpoints e
        WHERE e.id = $1 AND ${ownedBy(2, 'e.customer_id')}
       RETURNING id`,
      [test.endpointId, test.customerId, test.eventId, test.eventType, test.payload],
    ),
  );
  return row && String(row.id);
}
