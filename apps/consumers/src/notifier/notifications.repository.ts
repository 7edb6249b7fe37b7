import { DataSource, EntityManager } from 'typeorm';
import { bookkeepingQuery } from '../bookkeeping-query';

export interface NotificationIntent {
  eventId: string;
  orderId: string;
  recipient: string;
  subject: string;
}

/**
 * Commits the intent to send (status `sending`) before the provider is called, on its own (`bookkeepingQuery`). Returns the
 * number of this provider call for the row (1 the first time), or null when the email is already `sent`.
 */
export async function recordNotificationIntent(
  bookkeeping: DataSource,
  intent: NotificationIntent,
): Promise<number | null> {
  const rows = await bookkeepingQuery<{ attempts: number }>(
    bookkeeping,
    `INSERT INTO notifications (event_id, order_id, recipient, subject, status, attempts)
     VALUES ($1, $2, $3, $4, 'sending', 1)
     ON CONFLICT (event_id) DO UPDATE SET attempts = notifications.attempts + 1 WHERE notifications.status = 'sending'
     RETURNING attempts`,
    [intent.eventId, intent.orderId, intent.recipient, intent.subject],
  );
  return rows.length > 0 ? rows[0].attempts : null;
}

/** An email the provider accepted. */
export interface SentNotification {
  eventId: string;
  providerMessageId: string;
}

/**
 * After the provider accepted them: `sent` with their message ids, one statement for every email of the consumer's
 * transaction (queued with `ctx.write`, committed with the events' dedupe rows).
 */
export async function writeNotificationsSent(manager: EntityManager, sent: SentNotification[]): Promise<void> {
  await manager.query(
    `UPDATE notifications n SET status = 'sent', provider_message_id = s.message_id, sent_at = now()
       FROM unnest($1::varchar[], $2::varchar[]) AS s(event_id, message_id)
      WHERE n.event_id = s.event_id`,
    [sent.map((row) => row.eventId), sent.map((row) => row.providerMessageId)],
  );
}

/** Retention: up to `limit` notifications `sent` before `cutoff`; rows still `sending` are never deleted. */
export async function deleteSentNotificationsBefore(
  db: EntityManager | DataSource,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await db.query(
    `WITH doomed AS (
       SELECT id FROM notifications WHERE status = 'sent' AND sent_at < $1 ORDER BY sent_at LIMIT $2
     ), gone AS (
       DELETE FROM notifications n USING doomed d WHERE n.id = d.id RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [cutoff, limit],
  );
  return deleted;
}
