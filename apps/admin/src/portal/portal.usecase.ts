import { Database } from '@app/db';
import { SsrfGuard } from '@app/ssrf-guard';
import {
  createWebhookEndpoint,
  CustomerIdentity,
  customerActor,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  listDeliveries,
  listWebhookEndpoints,
  openPortalSession,
  replayDeliveries,
  replayDelivery,
  rotateWebhookSecret,
  sendTestDelivery,
  showDelivery,
  showWebhookEndpoint,
  updateWebhookEndpoint,
  WebhookAdminContext,
} from '@app/webhooks';
import { Injectable } from '@nestjs/common';
import { EventCatalog } from '../catalog/event-catalog';
import { asProblems } from '../webhook-endpoints/webhook-problems';

/**
 * The customer API: the operator's use cases of libs/webhooks, run in a context scoped to the caller's customer, so
 * that every statement is limited to its endpoints (another's, or the operator's, are not found: 404). Changes are
 * audited as `customer:<uid>/<token name>`.
 */
@Injectable()
export class PortalUseCase {
  constructor(
    private readonly database: Database,
    private readonly guard: SsrfGuard,
    private readonly catalog: EventCatalog,
  ) {}

  async openSession(body: Record<string, unknown>) {
    const dataSource = await this.database.connection();
    return asProblems(() => openPortalSession(dataSource, body));
  }

  me({ customer, token }: CustomerIdentity) {
    return {
      customer: { uid: customer.uid, name: customer.name },
      token: { name: token.name, kind: token.kind, expiresAt: token.expiresAt },
    };
  }

  eventTypes() {
    return this.catalog.eventTypes();
  }

  list(who: CustomerIdentity) {
    return this.run(who, (context) => listWebhookEndpoints(context));
  }

  async create(who: CustomerIdentity, body: Record<string, unknown>) {
    const { endpoint, secret } = await this.run(who, (context, actor) => createWebhookEndpoint(context, body, actor));
    return { ...endpoint, secret };
  }

  show(who: CustomerIdentity, id: string) {
    return this.run(who, (context) => showWebhookEndpoint(context, id));
  }

  update(who: CustomerIdentity, id: string, body: Record<string, unknown>) {
    return this.run(who, (context, actor) => updateWebhookEndpoint(context, id, body, actor));
  }

  disable(who: CustomerIdentity, id: string, body: Record<string, unknown>) {
    return this.run(who, (context, actor) => disableWebhookEndpoint(context, id, body, actor));
  }

  enable(who: CustomerIdentity, id: string) {
    return this.run(who, (context, actor) => enableWebhookEndpoint(context, id, actor));
  }

  delete(who: CustomerIdentity, id: string) {
    return this.run(who, (context, actor) => deleteWebhookEndpoint(context, id, actor));
  }

  async rotateSecret(who: CustomerIdentity, id: string) {
    const { secret } = await this.run(who, (context, actor) => rotateWebhookSecret(context, id, {}, actor));
    return { secret };
  }

  deliveries(who: CustomerIdentity, id: string, query: Record<string, unknown>) {
    return this.run(who, (context) => listDeliveries(context, id, query));
  }

  /** With its attempts (time, latency, status, the answer's first 2 KB, error), not the workers' names. */
  async delivery(who: CustomerIdentity, id: string, deliveryId: string) {
    const { attemptLog, ...delivery } = await this.run(who, (context) => showDelivery(context, id, deliveryId));
    // Each attempt as a customer reads it: when, how long, the answer; never which worker sent it.
    const attemptsLog = attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      at: attempt.startedAt,
      durationMs: attempt.latencyMs,
      status: attempt.status,
      responseExcerpt: attempt.responseBody,
      error: attempt.error,
    }));
    return { ...delivery, attemptsLog };
  }

  replayOne(who: CustomerIdentity, id: string, deliveryId: string) {
    return this.run(who, (context, actor) => replayDelivery(context, id, deliveryId, actor));
  }

  replaySince(who: CustomerIdentity, id: string, body: Record<string, unknown>) {
    return this.run(who, (context, actor) => replayDeliveries(context, id, body, actor));
  }

  test(who: CustomerIdentity, id: string, body: Record<string, unknown>) {
    return this.run(who, (context, actor) => sendTestDelivery(context, id, body, actor));
  }

  private async run<T>(
    who: CustomerIdentity,
    work: (context: WebhookAdminContext, actor: string) => Promise<T>,
  ): Promise<T> {
    const context = { dataSource: await this.database.connection(), guard: this.guard, customerId: who.customer.id };
    return asProblems(() => work(context, customerActor(who)));
  }
}
