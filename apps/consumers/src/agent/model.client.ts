import { callProvider, ProviderRejectedError, ProviderUnavailableError, providerUrl } from '@app/providers';

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
export class ModelUnavailableError extends ProviderUnavailableError {
  override name = 'ModelUnavailableError';
}

/** The model refused the request itself (400, 401, 404, 422, …): no retry can fix it; the task is dead at once. */
export class ModelRequestRejectedError extends ProviderRejectedError {
  override name = 'ModelRequestRejectedError';
}

/** The dependency name the agent's errors and metrics use. */
export const MODEL_PROVIDER = 'model';

/** `POST {base}/chat/completions`, the OpenAI-compatible shape that most model servers speak. */
export class ModelClient {
  constructor(private readonly settings: ModelSettings) {}

  get model(): string {
    return this.settings.model;
  }

  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<ModelAnswer> {
    const response = await callProvider(
      {
        provider: MODEL_PROVIDER,
        url: providerUrl(this.settings.baseUrl, 'chat/completions'),
        body: { model: this.settings.model, messages, temperature: 0 },
        apiKey: this.settings.apiKey,
        timeoutMs: this.settings.timeoutMs,
        signal,
      },
      { unavailable: ModelUnavailableError, rejected: ModelRequestRejectedError },
    );
    return parseAnswer(response.body, this.settings.model);
  }
}

function parseAnswer(body: string, requestedModel: string): ModelAnswer {
  let parsed: { model?: unknown; choices?: Array<{ message?: { content?: unknown } }>; usage?: ModelAnswer['usage'] };
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ModelUnavailableError(MODEL_PROVIDER, 'model answered with a body that is not JSON');
  }
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string')
    throw new ModelUnavailableError(MODEL_PROVIDER, 'model answered without choices[0].message.content');
  return { model: typeof parsed.model === 'string' ? parsed.model : requestedModel, content, usage: parsed.usage };
}
