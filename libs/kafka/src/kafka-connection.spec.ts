import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kafkaSecurity } from './kafka-connection';

describe('kafkaSecurity (pure: files it reads are made here)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-kafka-connection-'));
  const file = (name: string, content: string) => {
    writeFileSync(path.join(dir, name), content);
    return path.join(dir, name);
  };

  it('is plaintext without TLS or SASL', () => {
    expect(kafkaSecurity({ KAFKA_BROKERS: ['a:9092'] })).toEqual({ brokers: ['a:9092'] });
  });

  it('verifies against the given CA, presents a client certificate, and logs in with SCRAM', () => {
    const options = kafkaSecurity({
      KAFKA_BROKERS: ['a:9093'],
      KAFKA_TLS: true,
      KAFKA_TLS_CA_FILE: file('ca.pem', 'CA'),
      KAFKA_TLS_CERT_FILE: file('client.crt', 'CERT'),
      KAFKA_TLS_KEY: 'KEY',
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: 'hookrail-relay',
      KAFKA_SASL_PASSWORD: 'pw',
    });
    expect(options).toEqual({
      brokers: ['a:9093'],
      ssl: { ca: ['CA'], cert: 'CERT', key: 'KEY' },
      sasl: { mechanism: 'scram-sha-256', username: 'hookrail-relay', password: 'pw' },
    });
    expect(kafkaSecurity({ KAFKA_BROKERS: ['a:9093'], KAFKA_TLS: true }).ssl).toBe(true);
  });

  it('takes another mechanism from the module KAFKA_SASL_PROVIDER names', () => {
    const provider = file(
      'provider.js',
      "exports.sasl = (c) => ({ mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: c.KAFKA_BROKERS[0] }) });",
    );
    const { sasl } = kafkaSecurity({ KAFKA_BROKERS: ['b:9094'], KAFKA_SASL_PROVIDER: provider });
    expect(sasl).toMatchObject({ mechanism: 'oauthbearer' });
    const empty = file('empty.js', 'exports.other = 1;');
    expect(() => kafkaSecurity({ KAFKA_BROKERS: ['b:9094'], KAFKA_SASL_PROVIDER: empty })).toThrow(
      `KAFKA_SASL_PROVIDER ${empty} exports no sasl() function`,
    );
  });
});
