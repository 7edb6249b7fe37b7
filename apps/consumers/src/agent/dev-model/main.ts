// npm run dev:model — a fake OpenAI-compatible model on 127.0.0.1:4011 (MODEL_PORT); MODEL_BASE_URL is its /v1.
// MODEL_LATENCY_MS slows every answer, MODEL_FAILURE_RATE (0–1) fails a share of them, MODEL_API_KEY requires a key.
import { FakeModelServer } from './model.server';

async function main(): Promise<void> {
  const model = await FakeModelServer.start({
    port: Number(process.env.MODEL_PORT || 4011),
    host: process.env.MODEL_HOST || '127.0.0.1',
    apiKey: process.env.MODEL_API_KEY || undefined,
    behaviour: {
      latencyMs: Number(process.env.MODEL_LATENCY_MS || 0),
      failureRate: Number(process.env.MODEL_FAILURE_RATE || 0),
    },
  });
  process.stdout.write(
    `fake model listening on ${model.baseUrl} (POST /v1/chat/completions, GET /_dev/stats, POST /_dev/behaviour)\n`,
  );
  const stop = () => model.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`dev:model: ${error.message}\n`);
  process.exit(1);
});
