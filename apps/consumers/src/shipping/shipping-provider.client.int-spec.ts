import { classifyError } from '@app/consumer-runtime';
import { DevShippingProvider } from './dev-provider/shipping-provider.server';
import { ShipmentRejectedError, ShippingProviderClient } from './shipping-provider.client';

describe('shipping provider client against the development provider (real HTTP)', () => {
  let provider: DevShippingProvider;
  let client: ShippingProviderClient;
  const shipment = { reference: 'ord_1', recipient: 'cus_1', lines: [{ sku: 'book', quantity: 2 }] };

  beforeAll(async () => {
    provider = await DevShippingProvider.start();
    client = new ShippingProviderClient({ baseUrl: provider.url, timeoutMs: 2_000 });
  });

  afterAll(() => provider.close());

  it('creates one shipment per key and cancels it by that key', async () => {
    const created = await client.create(shipment, 'saga-1:create-shipment:action');
    expect(await client.create(shipment, 'saga-1:create-shipment:action')).toEqual(created);
    const cancel = { shipmentKey: 'saga-1:create-shipment:action', reference: 'ord_1' };
    expect(await client.cancel(cancel, 'saga-1:create-shipment:compensation')).toEqual({ cancelled: true });
    expect(await client.cancel({ ...cancel, shipmentKey: 'never-created' }, 'cancel-2')).toEqual({ cancelled: false });
    expect(provider.stats()).toMatchObject({ shipments: 1, cancelled: 1, replayed: 1 });
  });

  it('rejects on demand, permanently, and then for a recipient it cannot deliver to', async () => {
    await fetch(`${provider.url}/_dev/behaviour`, { method: 'POST', body: JSON.stringify({ rejectNext: 1 }) });
    const rejected = await client.create(shipment, 'saga-2:create-shipment:action').catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(ShipmentRejectedError);
    expect(classifyError(rejected)).toBe('poison');
    provider.configure({ rejectRecipients: ['cus_far_away'] });
    await expect(client.create({ ...shipment, recipient: 'cus_far_away' }, 'saga-3')).rejects.toThrow(/422/);
    expect((await client.create(shipment, 'saga-4')).shipmentId).toMatch(/^shp_/);
    expect(provider.stats()).toMatchObject({ rejected: 2 });
  });
});
