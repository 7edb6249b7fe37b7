import { loadConsumersConfig } from './load-consumers-config';
import { isLoopbackUrl } from './loopback-url';

const base = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/hookrail' };

describe('email provider and model configuration', () => {
  it('needs no API key for the development servers on this machine', () => {
    const config = loadConsumersConfig(base);
    expect(config).toMatchObject({
      EMAIL_PROVIDER_URL: 'http://127.0.0.1:4010',
      MODEL_BASE_URL: 'http://127.0.0.1:4011/v1',
      AGENT_MAX_ATTEMPTS: 5,
    });
    expect(config.EMAIL_PROVIDER_API_KEY).toBeUndefined();
  });

  it('names the missing key of a remote provider or model, for the group that needs it only', () => {
    expect(() => loadConsumersConfig({ ...base, EMAIL_PROVIDER_URL: 'https://mail.example.com' })).toThrow(
      'configuration error: EMAIL_PROVIDER_API_KEY is required but not set',
    );
    expect(() => loadConsumersConfig({ ...base, MODEL_BASE_URL: 'https://models.example.com/v1' })).toThrow(
      'configuration error: MODEL_API_KEY is required but not set',
    );
    expect(() =>
      loadConsumersConfig({
        ...base,
        CONSUMER_GROUPS: 'ledger,agent',
        EMAIL_PROVIDER_URL: 'https://mail.example.com',
      }),
    ).not.toThrow();
  });

  it('asks payments and shipping for the key of a remote provider, and has the saga defaults', () => {
    expect(() => loadConsumersConfig({ ...base, PAYMENT_PROVIDER_URL: 'https://pay.example.com' })).toThrow(
      'configuration error: PAYMENT_PROVIDER_API_KEY is required but not set',
    );
    expect(() => loadConsumersConfig({ ...base, SHIPPING_PROVIDER_URL: 'https://ship.example.com' })).toThrow(
      'configuration error: SHIPPING_PROVIDER_API_KEY is required but not set',
    );
    expect(loadConsumersConfig(base)).toMatchObject({
      PAYMENT_PROVIDER_URL: 'http://127.0.0.1:4012',
      SHIPPING_PROVIDER_URL: 'http://127.0.0.1:4013',
      FULFILMENT_RESERVE_STOCK_TIMEOUT_MS: 20_000,
      FULFILMENT_CHARGE_CARD_TIMEOUT_MS: 30_000,
      FULFILMENT_CREATE_SHIPMENT_TIMEOUT_MS: 60_000,
      FULFILMENT_STEP_RETRIES: 2,
      FULFILMENT_COMPENSATION_ATTEMPTS: 5,
      FULFILMENT_COMPENSATION_CEILING_MS: 3_600_000,
      INVENTORY_INITIAL_STOCK: 0,
    });
  });

  it("names a group's problems and the shared ones in the same line", () => {
    expect(() =>
      loadConsumersConfig({ ...base, METRICS_PORT: 'x', MODEL_BASE_URL: 'https://models.example.com/v1' }),
    ).toThrow(
      /^configuration error \(2 problems\): METRICS_PORT is invalid: .*; MODEL_API_KEY is required but not set$/,
    );
  });

  it('rejects a provider URL that is not http(s)', () => {
    expect(() =>
      loadConsumersConfig({
        ...base,
        EMAIL_PROVIDER_URL: 'smtp://mail.example.com:25',
        EMAIL_PROVIDER_API_KEY: 'key',
      }),
    ).toThrow(/EMAIL_PROVIDER_URL is invalid: must be an http\(s\) URL/);
  });

  it('knows loopback addresses', () => {
    expect(['http://127.0.0.1:4010', 'http://localhost', 'http://[::1]:4011/v1'].map(isLoopbackUrl)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['https://mail.example.com', 'http://10.0.0.1', 'not a url', undefined].map(isLoopbackUrl)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
