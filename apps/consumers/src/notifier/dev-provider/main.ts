// npm run dev:email-provider — the development email provider on 127.0.0.1:4010 (EMAIL_PROVIDER_PORT).
// EMAIL_PROVIDER_API_KEY, when set, is required as a bearer token; EMAIL_PROVIDER_LATENCY_MS slows every send.
import { DevEmailProvider } from './email-provider.server';

async function main(): Promise<void> {
  const provider = await DevEmailProvider.start({
    port: Number(process.env.EMAIL_PROVIDER_PORT || 4010),
    host: process.env.EMAIL_PROVIDER_HOST || '127.0.0.1',
    apiKey: process.env.EMAIL_PROVIDER_API_KEY || undefined,
    behaviour: { latencyMs: Number(process.env.EMAIL_PROVIDER_LATENCY_MS || 0) },
  });
  process.stdout.write(
    `email provider listening on ${provider.url} (POST /v1/emails, GET /v1/emails, GET /_dev/stats, POST /_dev/behaviour)\n`,
  );
  const stop = () => provider.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`dev:email-provider: ${error.message}\n`);
  process.exit(1);
});
