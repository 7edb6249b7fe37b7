// npm run dev:model — a fake OpenAI-compatible model on 127.0.0.1:4011 (MODEL_PORT); MODEL_BASE_URL is its /v1.
// MODEL_LATENCY_MS slows every answer, MODEL_FAILURE_RATE (0–1) fails a share of them, MODEL_API_KEY requires a key.
import { runDevProvider } from '@app/dev-providers';
import { FakeModelServer } from './model.server';

runDevProvider(
  'dev:model',
  async () => {
    const model = await FakeModelServer.start({
      port: Number(process.env.MODEL_PORT || 4011),
      host: process.env.MODEL_HOST || '127.0.0.1',
      apiKey: process.env.MODEL_API_KEY || undefined,
      behaviour: {
        latencyMs: Number(process.env.MODEL_LATENCY_MS || 0),
        failureRate: Number(process.env.MODEL_FAILURE_RATE || 0),
      },
    });
    return { url: model.baseUrl, close: () => model.close() };
  },
  (url) => `fake model listening on ${url} (POST /v1/chat/completions, GET /_dev/stats, POST /_dev/behaviour)`,
);
