import { CloudEvent, toKafkaRecord } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { laneOf } from './outbox-lanes';

/**
 * Adds a CloudEvent to the outbox inside the caller's transaction (`manager` is the transaction's manager): it is
 * published when, and only if, that transaction commits. The topic is chosen by the caller; the key is the subject.
 */
export async function addToOutbox(manager: EntityManager, topic: string, event: CloudEvent): Promise<void> {
  const record = toKafkaRecord(event);
  await manager.query(
    `INSERT INTO outbox (lane, event_id, topic, key, value, headers) VALUES ($1, $2, $3, $4, $5, $6)`,
    [laneOf(record.key), event.id, topic, record.key, record.value, record.headers],
  );
}
