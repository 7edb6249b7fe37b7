import { classifyError } from '@app/consumer-runtime';
import { DevPaymentProvider } from './dev-provider/payment-provider.server';
import {
  PaymentProviderClient,
  PaymentProviderUnavailableError,
  PaymentRejectedError,
} from './payment-provider.client';

describe('payment provider client against the development provider (real HTTP)', () => {
  let provider: DevPaymentProvider;
  let client: PaymentProviderClient;
  const charge = { amount: 4200, currency: 'EUR', customer: 'cus_1', reference: 'ord_1' };

  beforeAll(async () => {
    provider = await DevPaymentProvider.start({ apiKey: 'test-key' });
    client = new PaymentProviderClient({ baseUrl: provider.url, apiKey: 'test-key', timeoutMs: 2_000 });
  });

  afterAll(() => provider.close());

  it('charges once per idempotency key and refunds the charge made with a key once', async () => {
    const first = await client.charge(charge, 'saga-1:charge-card:action');
    expect(await client.charge(charge, 'saga-1:charge-card:action')).toEqual(first);
    const refund = { chargeKey: 'saga-1:charge-card:action', reference: 'ord_1' };
    const refunded = await client.refund(refund, 'saga-1:charge-card:compensation');
    expect(refunded).toEqual({ refundId: expect.stringMatching(/^re_/), amount: 4200, status: 'succeeded' });
    expect(await client.refund(refund, 'saga-1:charge-card:compensation')).toEqual(refunded);
    expect(await client.refund(refund, 'another-refund-key')).toEqual(refunded);
    expect(provider.stats()).toMatchObject({ charges: 1, chargedAmount: 4200, refunds: 1, refundedAmount: 4200 });
  });

  it('answers nothing_to_refund for a charge that never happened', async () => {
    expect(await client.refund({ chargeKey: 'never-charged', reference: 'ord_2' }, 'refund-2')).toEqual({
      refundId: null,
      amount: 0,
      status: 'nothing_to_refund',
    });
  });

  it('reports a declined card as rejected (permanent) and an outage as unavailable (transient)', async () => {
    await fetch(`${provider.url}/_dev/behaviour`, { method: 'POST', body: JSON.stringify({ declineNext: 1 }) });
    const declined = await client.charge(charge, 'saga-3:charge-card:action').catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(PaymentRejectedError);
    expect(classifyError(declined)).toBe('poison');
    // The decline is the key's answer from now on, as at a real provider.
    await expect(client.charge(charge, 'saga-3:charge-card:action')).rejects.toThrow(PaymentRejectedError);

    provider.configure({ failNext: 1, failStatus: 503, retryAfterSeconds: 2 });
    const down = await client.charge(charge, 'saga-4:charge-card:action').catch((error: unknown) => error);
    expect(down).toBeInstanceOf(PaymentProviderUnavailableError);
    expect(down).toMatchObject({ dependency: 'payment-provider', retryAfterMs: 2000 });
    expect(classifyError(down)).toBe('dependency');
    // Nothing was charged for the failed call: the same key charges now.
    await client.charge(charge, 'saga-4:charge-card:action');
    const stats = await (await fetch(`${provider.url}/_dev/stats`)).json();
    expect(stats).toMatchObject({ charges: 2, declined: 1, failed: 1, keys: { 'saga-4:charge-card:action': 2 } });
  });
});
