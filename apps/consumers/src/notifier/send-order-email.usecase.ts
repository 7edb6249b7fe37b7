import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { LOGGER } from '@app/logger';
import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { EmailProviderClient, EmailRejectedError } from './email-provider.client';
import { recordNotificationIntent, writeNotificationsSent } from './notifications.repository';
import { NotifierMetrics } from './notifier.metrics';
import { composeOrderEmail } from './order-email';
import { NotifierEnv } from './notifier.env';

/**
 * External effects once: the email goes out once, in the order that makes a crash cheap:
 * 1. commit the intent (`sending`) — a restart finds it;
 * 2. call the provider with `Idempotency-Key: <event id>` — the irreversible step, last;
 * 3. `sent` with the provider's message id, committed with the event's dedupe row (queued with `ctx.write`, one
 *    statement for every email the consumer commits together).
 * Killed between 2 and 3, the redelivered event finds `sending`, calls again with the same key, and the provider
 * answers with the email it already sent. An email already `sent` is never sent again.
 */
@Injectable()
export class SendOrderEmailUseCase {
  private providerCalls = 0;

  constructor(
    private readonly deps: ConsumerServiceDeps<NotifierEnv>,
    private readonly provider: EmailProviderClient,
    private readonly metrics: NotifierMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(event: CloudEvent<OrderFieldsV1>, ctx: ConsumerContext): Promise<void> {
    // Intent and outcome on the bookkeeping pool (commits that do not wait for the disk; see bookkeepingQuery).
    const { bookkeeping, config } = this.deps;
    const email = composeOrderEmail(event, config.EMAIL_FROM);
    const call = await recordNotificationIntent(bookkeeping, {
      eventId: event.id,
      orderId: event.data.orderId,
      recipient: email.to,
      subject: email.subject,
    });
    if (call === null) return;
    if (call > 1)
      this.logger.info({ eventId: event.id, call }, 'calling the email provider again with the same idempotency key');

    const stop = this.metrics.providerSeconds.startTimer();
    let messageId: string;
    try {
      messageId = await this.provider.send(email, event.id);
    } catch (error) {
      this.metrics.providerCalls.inc({ outcome: error instanceof EmailRejectedError ? 'rejected' : 'unavailable' });
      throw error;
    } finally {
      stop();
    }
    this.metrics.providerCalls.inc({ outcome: 'sent' });
    this.crashHereIfAsked(event.id);
    ctx.write(writeNotificationsSent, { eventId: event.id, providerMessageId: messageId });
  }

  /** Fault injection (HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS): dies after the call, before `sent` is recorded. */
  private crashHereIfAsked(eventId: string): void {
    const killAfter = this.deps.config.HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS;
    if (killAfter <= 0 || ++this.providerCalls < killAfter) return;
    this.logger.warn(
      { eventId, calls: this.providerCalls },
      'fault injection: killing the process after the provider call, before recording sent',
    );
    process.kill(process.pid, 'SIGKILL');
  }
}
