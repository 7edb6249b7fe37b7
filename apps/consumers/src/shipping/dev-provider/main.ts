// npm run dev:shipping-provider — the development shipping provider on 127.0.0.1:4013 (SHIPPING_PROVIDER_PORT).
// SHIPPING_PROVIDER_API_KEY, when set, is required as a bearer token; SHIPPING_PROVIDER_LATENCY_MS slows every call.
import { runDevProvider } from '@app/dev-providers';
import { DevShippingProvider } from './shipping-provider.server';

runDevProvider(
  'dev:shipping-provider',
  () =>
    DevShippingProvider.start({
      port: Number(process.env.SHIPPING_PROVIDER_PORT || 4013),
      host: process.env.SHIPPING_PROVIDER_HOST || '127.0.0.1',
      apiKey: process.env.SHIPPING_PROVIDER_API_KEY || undefined,
      behaviour: { latencyMs: Number(process.env.SHIPPING_PROVIDER_LATENCY_MS || 0) },
    }),
  (url) =>
    `shipping provider listening on ${url} (POST /v1/shipments, POST /v1/shipments/cancel, GET /v1/shipments, ` +
    'GET /_dev/stats, POST /_dev/behaviour)',
);
