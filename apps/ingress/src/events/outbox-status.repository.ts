import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** Read side of the outbox for the status API; the relay owns its writes. */
@Injectable()
export class OutboxStatusRepository {
  async findPublication(manager: EntityManager, eventId: string): Promise<{ publishedAt: Date | null } | undefined> {
    const rows: Array<{ published_at: Date | null }> = await manager.query(
      `SELECT published_at FROM outbox WHERE event_id = $1 ORDER BY id LIMIT 1`,
      [eventId],
    );
    return rows[0] && { publishedAt: rows[0].published_at };
  }
}
