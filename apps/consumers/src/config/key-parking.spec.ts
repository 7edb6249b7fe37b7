import { LedgerCurrencies } from '../ledger/record-ledger-entry.usecase';
import { loadConsumersConfig } from './load-consumers-config';

const base = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/hookrail' };

describe('key parking and ledger currencies configuration', () => {
  it('parks keys as each service says, resends a lost unparking replay after a minute, and keeps every currency', () => {
    const config = loadConsumersConfig(base);
    expect(config).toMatchObject({
      CONSUMER_KEY_PARKING: 'service',
      CONSUMER_UNPARK_RESEND_MS: 60_000,
      LEDGER_CURRENCIES: [],
    });
    expect(new LedgerCurrencies(config.LEDGER_CURRENCIES).keeps('XTS')).toBe(true);
  });

  it('reads a currency list, and names a bad value in one line', () => {
    const config = loadConsumersConfig({ ...base, LEDGER_CURRENCIES: ' eur, USD ', CONSUMER_KEY_PARKING: 'off' });
    expect(config.LEDGER_CURRENCIES).toEqual(['EUR', 'USD']);
    expect(config.CONSUMER_KEY_PARKING).toBe('off');
    const currencies = new LedgerCurrencies(config.LEDGER_CURRENCIES);
    expect([currencies.keeps('EUR'), currencies.keeps('XTS')]).toEqual([true, false]);

    expect(() => loadConsumersConfig({ ...base, LEDGER_CURRENCIES: 'EUR,euros' })).toThrow(
      /LEDGER_CURRENCIES .*must list ISO 4217 codes/,
    );
    expect(() => loadConsumersConfig({ ...base, CONSUMER_KEY_PARKING: 'on' })).toThrow(
      /CONSUMER_KEY_PARKING .*must be "service" or "off"/,
    );
  });
});
