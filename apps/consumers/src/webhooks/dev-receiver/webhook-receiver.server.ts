import { DevBehaviour, DevProviderOptions, DevProviderServer, DevRoute, readBody, reply } from '@app/dev-providers';
import { IncomingMessage } from 'node:http';

/** One webhook as the receiver got it. */
export interface ReceivedWebhook {
  /** The endpoint path it was sent to (`/hooks/<name>`). */
  path: string;
  webhookId: string;
  webhookTimestamp: string;
  webhookSignature: string;
  /** The raw body, as signed. */
  body: string;
  /** The answer it got: 200, or the injected failure's status. */
  status: number;
  receivedAt: string;
}

export interface WebhookReceiverStats {
  requests: number;
  /** Requests answered 2xx. */
  accepted: number;
  /** Distinct `webhook-id`s answered 2xx per path. */
  distinct: Record<string, number>;
  /** Injected failures (`failNext`, `failureRate`). */
  failed: number;
}

const HOOK_PATH = /^\/hooks\/[\w-]{1,64}$/;

/**
 * A webhook receiver for development and tests, over real HTTP: an outbound-webhook endpoint such as
 * `http://127.0.0.1:4014/hooks/orders` (any `/hooks/<name>`) that records every request with its Standard Webhooks
 * headers and raw body, answers 200, or fails on demand (`POST /_dev/behaviour`, e.g. `{"failureRate": 0.1}`).
 * `GET /v1/webhooks` lists what it got, in arrival order, for a test or an operator to verify with the endpoint's
 * secret.
 */
export class DevWebhookReceiver extends DevProviderServer<DevBehaviour> {
  readonly received: ReceivedWebhook[] = [];

  private constructor() {
    super(undefined, {});
  }

  static start(options: DevProviderOptions<DevBehaviour> = {}): Promise<DevWebhookReceiver> {
    return new DevWebhookReceiver().listen(options);
  }

  stats(): WebhookReceiverStats {
    const distinct: Record<string, Set<string>> = {};
    for (const webhook of this.received.filter((candidate) => candidate.status < 300))
      (distinct[webhook.path] ??= new Set()).add(webhook.webhookId);
    return {
      requests: this.received.length,
      accepted: this.received.filter((webhook) => webhook.status < 300).length,
      distinct: Object.fromEntries(Object.entries(distinct).map(([path, ids]) => [path, ids.size])),
      failed: this.received.filter((webhook) => webhook.status >= 300).length,
    };
  }

  protected routes(): Record<string, DevRoute> {
    return {
      'GET /v1/webhooks': async (_request, response) => reply(response, 200, { data: this.received }),
    };
  }

  /** Every `POST /hooks/<name>` is an endpoint; the rest goes to the shared routes. */
  protected override route(request: IncomingMessage): DevRoute | undefined {
    const path = request.url?.split('?')[0] ?? '';
    if (request.method !== 'POST' || !HOOK_PATH.test(path)) return undefined;
    return async (incoming, response) => {
      const body = await readBody(incoming);
      const header = (name: string) => String(incoming.headers[name] ?? '');
      const webhook: ReceivedWebhook = {
        path,
        webhookId: header('webhook-id'),
        webhookTimestamp: header('webhook-timestamp'),
        webhookSignature: header('webhook-signature'),
        body,
        status: 200,
        receivedAt: new Date().toISOString(),
      };
      this.received.push(webhook);
      if ((await this.simulate(response, { error: 'receiver_failure', message: 'failing on purpose' })) !== 'proceed') {
        webhook.status = this.behaviour.failStatus;
        return;
      }
      reply(response, 200, { received: true });
    };
  }
}
