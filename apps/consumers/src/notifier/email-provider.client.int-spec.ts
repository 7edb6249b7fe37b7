import { classifyError, dependencyOf } from '@app/consumer-runtime';
import { waitFor } from '@app/testing';
import { DevEmailProvider } from './dev-provider/email-provider.server';
import {
  EmailProviderClient,
  EmailProviderUnavailableError,
  EmailRejectedError,
  OutgoingEmail,
} from './email-provider.client';

describe('email provider client against the development provider (real HTTP)', () => {
  let provider: DevEmailProvider;
  let client: EmailProviderClient;
  const email: OutgoingEmail = { from: 'shop@example.com', to: 'ada@example.com', subject: 'Hello', text: 'Hi' };

  beforeAll(async () => {
    provider = await DevEmailProvider.start({ apiKey: 'test-key' });
    client = new EmailProviderClient({ baseUrl: provider.url, apiKey: 'test-key', timeoutMs: 2_000 });
  });

  afterAll(() => provider.close());

  it('sends once per idempotency key and answers a repeated key with the first message id', async () => {
    const first = await client.send(email, 'key-1');
    expect(await client.send(email, 'key-1')).toBe(first);
    expect(await client.send(email, 'key-2')).not.toBe(first);
    expect(provider.emails.map((sent) => sent.idempotencyKey)).toEqual(['key-1', 'key-2']);
    expect(provider.stats()).toMatchObject({ requests: 3, sent: 2, replayed: 1 });
  });

  it('refuses a key reused for a different email, and a wrong API key, as permanent errors', async () => {
    await expect(client.send({ ...email, subject: 'Other' }, 'key-1')).rejects.toThrow(EmailRejectedError);
    const stranger = new EmailProviderClient({ baseUrl: provider.url, apiKey: 'wrong', timeoutMs: 2_000 });
    const refused = await stranger.send(email, 'key-3').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmailRejectedError);
    expect(classifyError(refused)).toBe('poison');
  });

  it('reports failures, slowness and a request still in progress as retryable, and sends nothing for them', async () => {
    const sentBefore = provider.stats().sent;
    provider.configure({ failNext: 1, failStatus: 503 });
    await expect(client.send(email, 'key-4')).rejects.toThrow(EmailProviderUnavailableError);

    provider.configure({ latencyMs: 300 });
    const slowClient = new EmailProviderClient({ baseUrl: provider.url, apiKey: 'test-key', timeoutMs: 100 });
    await expect(slowClient.send(email, 'key-5')).rejects.toThrow(EmailProviderUnavailableError);
    const first = client.send(email, 'key-6');
    await waitFor(() => provider.stats().keys['key-6'] === 1, { what: 'the first request with key-6 in progress' });
    const [inProgress, completed] = await Promise.allSettled([first, client.send(email, 'key-6')]);
    provider.configure({ latencyMs: 0 });
    expect(inProgress.status).toBe('fulfilled');
    expect(completed).toMatchObject({ status: 'rejected', reason: expect.any(EmailProviderUnavailableError) });
    expect((completed as PromiseRejectedResult).reason.message).toMatch(/409/);
    // A down dependency, named: retried up to the long ceiling, counted by the notifier's breaker for it.
    expect(classifyError((completed as PromiseRejectedResult).reason)).toBe('dependency');
    expect(dependencyOf((completed as PromiseRejectedResult).reason)).toBe('email-provider');
    expect(provider.stats().sent).toBe(sentBefore + 2);
  });
});
