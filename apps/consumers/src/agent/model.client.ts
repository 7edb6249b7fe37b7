import { PermanentError } from '@app/consumer-runtime';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelSettings {
  /** Up to and including `/v1`, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface ModelAnswer {
  model: string;
  content: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

/** The model could not answer now (network, timeout, 5xx, 429): the attempt is retried after a backoff. */
export class ModelUnavailableError extends Error {
  override name = 'ModelUnavailableError';
}

/** The model refused the request itself (400, 401, 404, 422, …): no retry can fix it; the task is dead at once. */
export class ModelRequestRejectedError extends PermanentError {
  override name = 'ModelRequestRejectedError';
}

const RETRYABLE_STATUSES = new Set([408, 409, 425, 429]);

/** `POST {base}/chat/completions`, the OpenAI-compatible shape that most model servers speak. */
export class ModelClient {
  constructor(private readonly settings: ModelSettings) {}

  get model(): string {
    return this.settings.model;
  }

  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<ModelAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    let response: Response;
    let body: string;
    try {
      response = await fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.settings.model, messages, temperature: 0 }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      body = await response.text();
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ModelUnavailableError(`model unreachable: ${(error as Error).message}`);
    }
    if (!response.ok) {
      const detail = `model answered ${response.status}: ${body.slice(0, 300)}`;
      if (response.status >= 500 || RETRYABLE_STATUSES.has(response.status)) throw new ModelUnavailableError(detail);
      throw new ModelRequestRejectedError(detail);
    }
    return parseAnswer(body, this.settings.model);
  }
}

function parseAnswer(body: string, requestedModel: string): ModelAnswer {
  let parsed: { model?: unknown; choices?: Array<{ message?: { content?: unknown } }>; usage?: ModelAnswer['usage'] };
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ModelUnavailableError('model answered with a body that is not JSON');
  }
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new ModelUnavailableError('model answered without choices[0].message.content');
  return { model: typeof parsed.model === 'string' ? parsed.model : requestedModel, content, usage: parsed.usage };
}
