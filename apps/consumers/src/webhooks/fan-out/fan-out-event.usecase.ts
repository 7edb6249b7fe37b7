import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, CUSTOMER_ID_ATTRIBUTE } from '@app/contracts';
import { FanOutRow, insertDeliveries, requeueFailedDeliveries } from '@app/webhooks';
import { activeTraceparent } from '@app/tracing';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConsumerServiceDeps } from '../../consumer-service.deps';
import { RetrySchedule } from '../delivery/retry-schedule';
import { markDeliveriesWritten } from './deliveries-written';
import { WebhookDeliveryEnv } from '../config/webhook-delivery.env';

/**
 * The `webhooks` group's whole Kafka-side work: each event becomes one delivery row per endpoint (enabled or not) of
 * the operator's and of the event's customer (its `customerid` attribute) whose filters match, written with the group's dedupe row in one transaction (a redelivered event writes nothing twice).
 * The workers send them later, so a slow endpoint never holds a partition. A replayed dead letter of this group sends
 * the event's failed deliveries again.
 */
@Injectable()
export class FanOutEventUseCase {
  private readonly firstDelayMs: number;
  private readonly writer = async (manager: EntityManager, rows: FanOutRow[]) => {
    if ((await insertDeliveries(manager, rows, this.firstDelayMs)) > 0) markDeliveriesWritten(manager);
  };

  constructor({ config }: ConsumerServiceDeps<WebhookDeliveryEnv>) {
    this.firstDelayMs = RetrySchedule.parse(config.OUTBOUND_WEBHOOKS_RETRY_SCHEDULE, 0).firstDelayMs;
  }

  async execute(event: CloudEvent, ctx: ConsumerContext): Promise<void> {
    if (ctx.replayCount > 0 && (await this.replay(event, ctx))) return;
    const customerId = event[CUSTOMER_ID_ATTRIBUTE];
    ctx.write(this.writer, {
      eventId: event.id,
      producerEventId: event.producerId ?? null,
      eventType: event.type,
      eventSource: event.source,
      eventTime: event.time,
      subject: event.subject ?? null,
      orderingKey: (typeof event.partitionkey === 'string' && event.partitionkey) || event.subject || event.id,
      payload: JSON.stringify(event.data ?? null),
      sourceTopic: ctx.topic,
      sourcePartition: ctx.partition,
      sourceOffset: ctx.offset,
      traceparent: activeTraceparent() ?? null,
      customerId: typeof customerId === 'string' ? customerId : null,
    });
  }

  /** True when the event had deliveries, whose failed ones now go again; false to fan it out like a new event. */
  private async replay(event: CloudEvent, ctx: ConsumerContext): Promise<boolean> {
    const requeued = await requeueFailedDeliveries(ctx.manager, event.id, ctx.replayCount);
    if (requeued < 0) return false;
    if (requeued > 0) markDeliveriesWritten(ctx.manager);
    ctx.logger.info({ replayCount: ctx.replayCount, requeued }, 'replay: failed webhook deliveries queued again');
    return true;
  }
}
