import { Database } from '@app/db';
import { SsrfGuard } from '@app/ssrf-guard';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  endpointAudit,
  listDeliveries,
  listWebhookEndpoints,
  replayDelivery,
  replayDeliveries,
  retryDeliveryNow,
  rotateWebhookSecret,
  showDelivery,
  showWebhookEndpoint,
  WebhookAdminContext,
} from '@app/webhooks';
import { Injectable } from '@nestjs/common';
import { asProblems } from './webhook-problems';

/**
 * /admin/webhook-endpoints: each route calls one use case of libs/webhooks (the CLI calls the same ones) and turns
 * their refusals into answers: 400 naming the field or the SSRF reason, 404, 409. Nothing is written on a refusal.
 */
@Injectable()
export class WebhookEndpointsAdminUseCase {
  constructor(
    private readonly database: Database,
    private readonly guard: SsrfGuard,
  ) {}

  async create(body: Record<string, unknown>, actor: string) {
    const { endpoint, secret } = await this.run((context) => createWebhookEndpoint(context, body, actor));
    return { ...endpoint, secret };
  }

  list() {
    return this.run((context) => listWebhookEndpoints(context));
  }

  show(id: string) {
    return this.run((context) => showWebhookEndpoint(context, id));
  }

  disable(id: string, body: Record<string, unknown>, actor: string) {
    return this.run((context) => disableWebhookEndpoint(context, id, body, actor));
  }

  enable(id: string, actor: string) {
    return this.run((context) => enableWebhookEndpoint(context, id, actor));
  }

  async rotateSecret(id: string, body: Record<string, unknown>, actor: string) {
    const { endpoint, secret } = await this.run((context) => rotateWebhookSecret(context, id, body, actor));
    return { ...endpoint, secret };
  }

  delete(id: string, actor: string) {
    return this.run((context) => deleteWebhookEndpoint(context, id, actor));
  }

  deliveries(id: string, query: Record<string, unknown>) {
    return this.run((context) => listDeliveries(context, id, query));
  }

  delivery(id: string, deliveryId: string) {
    return this.run((context) => showDelivery(context, id, deliveryId));
  }

  replayOne(id: string, deliveryId: string, actor: string) {
    return this.run((context) => replayDelivery(context, id, deliveryId, actor));
  }

  retryNow(id: string, deliveryId: string, actor: string) {
    return this.run((context) => retryDeliveryNow(context, id, deliveryId, actor));
  }

  replaySince(id: string, body: Record<string, unknown>, actor: string) {
    return this.run((context) => replayDeliveries(context, id, body, actor));
  }

  audit(id: string, limit: number) {
    return this.run((context) => endpointAudit(context, id, limit));
  }

  private async run<T>(work: (context: WebhookAdminContext) => Promise<T>): Promise<T> {
    const dataSource = await this.database.connection();
    return asProblems(() => work({ dataSource, guard: this.guard }));
  }
}
