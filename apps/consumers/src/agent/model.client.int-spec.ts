import { classifyError } from '@app/consumer-runtime';
import { waitFor } from '@app/testing';
import { FakeModelServer } from './dev-model/model.server';
import { ModelClient, ModelRequestRejectedError, ModelUnavailableError } from './model.client';

describe('model client against the fake model (real HTTP, OpenAI-compatible)', () => {
  let model: FakeModelServer;
  let client: ModelClient;
  const messages = [{ role: 'user' as const, content: 'Note: wrap it as a gift' }];

  beforeAll(async () => {
    model = await FakeModelServer.start({ apiKey: 'test-key' });
    client = new ModelClient({ baseUrl: model.baseUrl, model: 'triage-small', apiKey: 'test-key', timeoutMs: 2_000 });
  });

  afterAll(() => model.close());

  it('returns the first choice of a chat completion', async () => {
    const answer = await client.complete(messages);
    expect(answer).toMatchObject({ model: 'triage-small', usage: { completion_tokens: 16 } });
    expect(JSON.parse(answer.content)).toEqual({ category: 'gift', summary: 'wrap it as a gift' });
  });

  it('tells failures a retry may fix (5xx, 429, timeout) from those it cannot (4xx)', async () => {
    model.configure({ failNext: 1, failStatus: 503 });
    await expect(client.complete(messages)).rejects.toThrow(ModelUnavailableError);
    model.configure({ failNext: 1, failStatus: 429 });
    await expect(client.complete(messages)).rejects.toThrow(ModelUnavailableError);
    model.configure({ failNext: 1, failStatus: 400 });
    const rejected = await client.complete(messages).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(ModelRequestRejectedError);
    expect(classifyError(rejected)).toBe('poison');

    model.configure({ nextLatenciesMs: [1_000] });
    const impatient = new ModelClient({ baseUrl: model.baseUrl, model: 'm', apiKey: 'test-key', timeoutMs: 100 });
    await expect(impatient.complete(messages)).rejects.toThrow(ModelUnavailableError);
    await expect(
      new ModelClient({ baseUrl: model.baseUrl, model: 'm', apiKey: 'wrong', timeoutMs: 2_000 }).complete(messages),
    ).rejects.toThrow(ModelRequestRejectedError);
  });

  it('stops the call when its signal aborts (the lease was lost), and the server sees the client go', async () => {
    model.configure({ nextLatenciesMs: [5_000] });
    const controller = new AbortController();
    const call = client.complete(messages, controller.signal);
    const abandonedBefore = model.stats().abandoned;
    await waitFor(() => model.stats().inFlight === 1, { what: 'the call in flight' });
    controller.abort(new Error('lease lost'));
    await expect(call).rejects.toThrow('lease lost');
    await waitFor(() => model.stats().abandoned > abandonedBefore, {
      what: 'the server to see the client go',
      timeoutMs: 2_000,
    });
  });
});
