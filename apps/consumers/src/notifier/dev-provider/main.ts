// npm run dev:email-provider — the development email provider on 127.0.0.1:4010 (EMAIL_PROVIDER_PORT).
// EMAIL_PROVIDER_API_KEY, when set, is required as a bearer token; EMAIL_PROVIDER_LATENCY_MS slows every send.
import { runDevProvider } from '@app/dev-providers';
import { DevEmailProvider } from './email-provider.server';

runDevProvider(
  'dev:email-provider',
  () =>
    DevEmailProvider.start({
      port: Number(process.env.EMAIL_PROVIDER_PORT || 4010),
      host: process.env.EMAIL_PROVIDER_HOST || '127.0.0.1',
      apiKey: process.env.EMAIL_PROVIDER_API_KEY || undefined,
      behaviour: { latencyMs: Number(process.env.EMAIL_PROVIDER_LATENCY_MS || 0) },
    }),
  (url) =>
    `email provider listening on ${url} (POST /v1/emails, GET /v1/emails, GET /_dev/stats, POST /_dev/behaviour)`,
);
