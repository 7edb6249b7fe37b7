import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** Read side of the outbox for the status API; the relay owns its writes. */
@Injectable()
export class OutboxStatusRepository {
  /** The event's outbox row, if retention has not pruned it yet (it prunes only published rows). */
  async findPublication(
    manager: EntityManager,
    eventId: string,
  ): Promise<{ publishedAt: Date | null; failedAt: Date | null; lastError: string | null } | undefined> {
    const rows: Array<{ published_at: Date | null; failed_at: Date | null; last_error: string | null }> =
      await manager.query(
        `SELECT published_at, failed_at, last_error FROM outbox WHERE event_id = $1 ORDER BY id LIMIT 1`,
        [eventId],
      );
    return rows[0] && { publishedAt: rows[0].published_at, failedAt: rows[0].failed_at, lastError: rows[0].last_error };
  }
}
