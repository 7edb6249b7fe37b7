import { DataSource, EntityManager } from 'typeorm';

export interface NotificationIntent {
  eventId: string;
  orderId: string;
  recipient: string;
  subject: string;
}

/**
 * Commits the intent to send (status `sending`) before the provider is called, in its own transaction. Returns the
 * number of this provider call for the row (1 the first time), or null when the email is already `sent`.
 */
export async function recordNotificationIntent(
  dataSource: DataSource,
  intent: NotificationIntent,
): Promise<number | null> {
  const rows: Array<{ attempts: number }> = await dataSource.query(
    `INSERT INTO notifications (event_id, order_id, recipient, subject, status, attempts)
     VALUES ($1, $2, $3, $4, 'sending', 1)
     ON CONFLICT (event_id) DO UPDATE SET attempts = notifications.attempts + 1 WHERE notifications.status = 'sending'
     RETURNING attempts`,
    [intent.eventId, intent.orderId, intent.recipient, intent.subject],
  );
  return rows.length > 0 ? rows[0].attempts : null;
}

/** After the provider accepted the email: `sent` with its message id, committed at once. */
export async function markNotificationSent(
  dataSource: DataSource,
  eventId: string,
  providerMessageId: string,
): Promise<void> {
  await dataSource.query(
    `UPDATE notifications SET status = 'sent', provider_message_id = $2, sent_at = now() WHERE event_id = $1`,
    [eventId, providerMessageId],
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
