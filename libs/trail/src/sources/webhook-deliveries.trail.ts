import { findDeliveryTrail } from '@app/webhooks';
import { TrailEntry, TrailSource } from '../trail';

/** The consumer group that turns events into outbound deliveries. */
const GROUP = 'webhooks';

/**
 * The event's outbound webhook deliveries (webhook_deliveries: one per endpoint that wanted it, written by the
 * `webhooks` group with its dedupe row) and every attempt of each (webhook_delivery_attempts: time, HTTP status,
 * latency, error; one in flight has none yet), replays included; a delivery that spent its attempts shows as failed.
 */
export const webhookDeliveriesTrail: TrailSource = {
  name: 'webhook-deliveries',
  async entries(event, { db }) {
    const { deliveries, attempts } = await findDeliveryTrail(db, event.id);
    if (deliveries.length === 0) return [];
    const entries: TrailEntry[] = [];
    for (const delivery of deliveries) {
      const id = String(delivery.id);
      const facts = { deliveryId: id, endpointId: delivery.endpoint_id, url: delivery.url };
      entries.push({
        at: new Date(delivery.created_at),
        step: 'delivery-queued',
        level: 'info',
        group: GROUP,
        summary: `outbound delivery ${id} queued for ${delivery.url}; now ${delivery.state}${delivery.replay_count ? `, replayed ${delivery.replay_count}×` : ''}`,
        detail: { ...facts, state: delivery.state, attempts: delivery.attempts, replayCount: delivery.replay_count },
      });
      for (const attempt of attempts.filter((row) => String(row.delivery_id) === id)) {
        if (attempt.latency_ms === null) {
          entries.push({
            at: new Date(attempt.started_at),
            step: 'delivery-attempt',
            level: 'info',
            group: GROUP,
            summary: `delivery ${id} attempt ${attempt.attempt} to ${delivery.url}: in flight`,
            detail: { ...facts, attempt: attempt.attempt },
          });
          continue;
        }
        const delivered = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
        const answer =
          attempt.status === null
            ? `no answer (${attempt.error ?? 'unknown error'})`
            : (attempt.error ?? `HTTP ${attempt.status}`);
        entries.push({
          at: new Date(attempt.started_at),
          step: delivered ? 'delivered' : 'delivery-attempt-failed',
          level: delivered ? 'ok' : 'warn',
          group: GROUP,
          summary: `delivery ${id} attempt ${attempt.attempt} to ${delivery.url}: ${answer} in ${attempt.latency_ms} ms`,
          detail: {
            ...facts,
            attempt: attempt.attempt,
            status: attempt.status,
            latencyMs: attempt.latency_ms,
            error: attempt.error,
          },
        });
      }
      if (delivery.state === 'failed' && delivery.failed_at)
        entries.push({
          at: new Date(delivery.failed_at),
          step: 'delivery-failed',
          level: 'error',
          group: GROUP,
          summary: `delivery ${id} to ${delivery.url} failed after ${delivery.attempts} attempt(s): ${delivery.last_error ?? 'unknown error'}; replay it from the endpoint's deliveries`,
          detail: { ...facts, attempts: delivery.attempts, lastError: delivery.last_error },
        });
    }
    return entries;
  },
};
