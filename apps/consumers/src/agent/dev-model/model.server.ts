import { DevBehaviour, DevProviderOptions, DevProviderServer, DevRoute, readBody, reply } from '@app/dev-providers';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';

/** How the fake model behaves; change it at run time with `configure` or `POST /_dev/behaviour`. */
export type ModelBehaviour = DevBehaviour;

export interface ModelStats {
  /** Calls received. */
  requests: number;
  /** Calls answered with a completion. */
  completed: number;
  failed: number;
  /** Calls whose client went away before the answer. */
  abandoned: number;
  /** Calls being worked on right now. */
  inFlight: number;
}

const CATEGORIES: Array<[RegExp, string]> = [
  [/gift|wrap|present/i, 'gift'],
  [/deliver|shipping|address|door|parcel/i, 'delivery'],
  [/change|instead|swap|size/i, 'change'],
  [/broken|late|wrong|refund|complain/i, 'complaint'],
];

/**
 * An OpenAI-compatible chat-completions server for development and tests, over real HTTP: `POST
 * /v1/chat/completions` answers with a deterministic triage of the last user message, after a configurable
 * latency, or fails on demand. A call whose client goes away during the latency is abandoned, as a model would.
 */
export class FakeModelServer extends DevProviderServer<ModelBehaviour> {
  private readonly counts = { requests: 0, completed: 0, failed: 0, abandoned: 0, inFlight: 0 };

  private constructor(apiKey?: string) {
    super(apiKey, {});
  }

  static start(options: DevProviderOptions<ModelBehaviour> = {}): Promise<FakeModelServer> {
    return new FakeModelServer(options.apiKey).listen(options);
  }

  /** Up to and including `/v1`: what MODEL_BASE_URL takes. */
  get baseUrl(): string {
    return `${this.url}/v1`;
  }

  stats(): ModelStats {
    return { ...this.counts };
  }

  protected routes(): Record<string, DevRoute> {
    return { 'POST /v1/chat/completions': (request, response) => this.complete(request, response) };
  }

  private async complete(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.counts.requests++;
    if (!this.authorized(request, response, { error: { message: 'invalid api key' } })) return;
    let body: { model?: string; messages?: Array<{ role?: string; content?: string }> };
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      return reply(response, 400, { error: { message: 'body is not JSON' } });
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return reply(response, 400, { error: { message: 'messages is required' } });

    this.counts.inFlight++;
    const outcome = await this.simulate(
      response,
      { error: { message: 'failing on purpose', type: 'server_error' } },
      { abandonOnClose: true },
    ).finally(() => this.counts.inFlight--);
    if (outcome === 'abandoned') this.counts.abandoned++;
    if (outcome === 'failed') this.counts.failed++;
    if (outcome !== 'proceed') return;
    this.counts.completed++;
    const note = [...body.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    reply(response, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? 'fake',
      choices: [
        { index: 0, message: { role: 'assistant', content: JSON.stringify(triage(note)) }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: note.length, completion_tokens: 16, total_tokens: note.length + 16 },
    });
  }
}

function triage(text: string): { category: string; summary: string } {
  const note = text.split('Note:').pop()?.trim() ?? text;
  const category = CATEGORIES.find(([pattern]) => pattern.test(note))?.[1] ?? 'other';
  return { category, summary: note.split(/\s+/).slice(0, 20).join(' ') };
}
