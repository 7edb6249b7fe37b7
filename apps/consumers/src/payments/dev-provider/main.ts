// npm run dev:payment-provider — the development payment provider on 127.0.0.1:4012 (PAYMENT_PROVIDER_PORT).
// PAYMENT_PROVIDER_API_KEY, when set, is required as a bearer token; PAYMENT_PROVIDER_LATENCY_MS slows every call.
import { runDevProvider } from '@app/dev-providers';
import { DevPaymentProvider } from './payment-provider.server';

runDevProvider(
  'dev:payment-provider',
  () =>
    DevPaymentProvider.start({
      port: Number(process.env.PAYMENT_PROVIDER_PORT || 4012),
      host: process.env.PAYMENT_PROVIDER_HOST || '127.0.0.1',
      apiKey: process.env.PAYMENT_PROVIDER_API_KEY || undefined,
      behaviour: { latencyMs: Number(process.env.PAYMENT_PROVIDER_LATENCY_MS || 0) },
    }),
  (url) =>
    `payment provider listening on ${url} (POST /v1/charges, POST /v1/refunds, GET /v1/charges, GET /v1/refunds, ` +
    'GET /_dev/stats, POST /_dev/behaviour)',
);
