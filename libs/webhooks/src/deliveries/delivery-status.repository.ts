import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** One outbound webhook delivery of an event, as the status API shows it. */
export interface WebhookDeliveryStatus {
  endpointId: string;
  url: string;
  /** pending (waiting for its next attempt, or for its disabled endpoint), sending, delivered, failed. */
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  updatedAt: Date;
}

/** The deliveries of an event for the ingress's status API (GET /events/:id). */
@Injectable()
export class WebhookDeliveryStatusRepository {
  /** The event's deliveries, one per endpoint, in the order they were written (uq_webhook_deliveries_event_endpoint). */
  async findByEvent(manager: EntityManager, eventId: string): Promise<WebhookDeliveryStatus[]> {
    const rows: Array<Record<string, any>> = await manager.query(
      `SELECT d.endpoint_id, e.url, d.state, d.attempts, d.last_status, d.last_error, d.delivered_at, d.updated_at
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.event_id = $1
        ORDER BY d.id`,
      [eventId],
    );
    return rows.map((row) => ({
      endpointId: row.endpoint_id,
      url: row.url,
      status: row.state,
      attempts: row.attempts,
      lastStatus: row.last_status,
      lastError: row.last_error,
      deliveredAt: row.delivered_at,
      updatedAt: row.updated_at,
    }));
  }
}
