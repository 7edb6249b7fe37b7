// npm run dev:webhook-receiver — a development webhook receiver on 127.0.0.1:4014 (WEBHOOK_RECEIVER_PORT): point an
// outbound-webhook endpoint at http://127.0.0.1:4014/hooks/<name>, then GET /v1/webhooks. WEBHOOK_RECEIVER_FAILURE_RATE
// (0–1) answers that share of webhooks 503; WEBHOOK_RECEIVER_LATENCY_MS slows every answer.
import { runDevProvider } from '@app/dev-providers';
import { DevWebhookReceiver } from './webhook-receiver.server';

runDevProvider(
  'dev:webhook-receiver',
  () =>
    DevWebhookReceiver.start({
      port: Number(process.env.WEBHOOK_RECEIVER_PORT || 4014),
      host: process.env.WEBHOOK_RECEIVER_HOST || '127.0.0.1',
      behaviour: {
        latencyMs: Number(process.env.WEBHOOK_RECEIVER_LATENCY_MS || 0),
        failureRate: Number(process.env.WEBHOOK_RECEIVER_FAILURE_RATE || 0),
      },
    }),
  (url) =>
    `webhook receiver listening on ${url} (POST /hooks/<name>, GET /v1/webhooks, GET /_dev/stats, POST /_dev/behaviour)`,
);
