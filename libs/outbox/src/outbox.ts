import { CloudEvent } from '@app/contracts';
import { preparedManagerRows } from '@app/db';
import { EntityManager } from 'typeorm';
import { NewOutboxRow, toOutboxRow } from './outbox-row';
import { OutboxRepository } from './outbox.repository';

/**
 * Adds a CloudEvent to the outbox inside the caller's transaction (`manager` is the transaction's manager): it is
 * published when, and only if, that transaction commits. The topic is chosen by the caller; the key is the subject.
 * After the commit, call `OutboxNotifier#committed` (or `notifyOutbox`) so a relay picks it up at once rather than at
 * its next poll. Every writer uses it, except the ingress, whose event and outbox row are one statement
 * (`insertOutboxRowFrom`). The insert is prepared once per connection (a saga writes one per message it handles).
 */
export async function addToOutbox(manager: EntityManager, topic: string, event: CloudEvent): Promise<void> {
  await new OutboxRepository(preparedManagerRows(manager)).insert(toOutboxRow(topic, event));
}

/**
 * Writes outbox rows queued by consumer handlers (`ctx.write(writeOutboxRows, toOutboxRow(topic, event))`): all the
 * rows a transaction queued, in one statement, right before it commits.
 */
export async function writeOutboxRows(manager: EntityManager, rows: NewOutboxRow[]): Promise<void> {
  await new OutboxRepository(preparedManagerRows(manager)).insertMany(rows);
}
