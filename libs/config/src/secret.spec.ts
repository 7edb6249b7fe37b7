import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BaseEnv } from './base.env';
import { ConfigError } from './config-error';
import { KafkaEnv } from './kafka.env';
import { loadConfig } from './load-config';

describe('secrets from files and the Kafka connection variables', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookrail-secret-'));
  const file = (name: string, content: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, content);
    return at;
  };
  const url = 'postgres://hookrail:s3cr3t-pw@db.internal:5432/hookrail';
  const problemsOf = (work: () => unknown): string[] => {
    try {
      work();
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('reads a secret from <NAME>_FILE, less its trailing line break', () => {
    const config = loadConfig(BaseEnv, { DATABASE_URL_FILE: file('database-url', `${url}\n`) });
    expect(config.DATABASE_URL).toBe(url);
  });

  it('refuses a secret given both ways, and a file that cannot be read, naming the variables only', () => {
    const both = problemsOf(() =>
      loadConfig(BaseEnv, { DATABASE_URL: url, DATABASE_URL_FILE: file('database-url-2', url) }),
    );
    expect(both).toEqual(['DATABASE_URL and DATABASE_URL_FILE are both set: set one of them']);
    const missing = problemsOf(() => loadConfig(BaseEnv, { DATABASE_URL_FILE: path.join(dir, 'absent') }));
    expect(missing).toEqual([expect.stringMatching(/^DATABASE_URL_FILE cannot be read: ENOENT /)]);
    expect([...both, ...missing].join(' ')).not.toContain('s3cr3t-pw');
  });

  it('does not read <NAME>_FILE of a variable that is not a secret', () => {
    const config = loadConfig(BaseEnv, { DATABASE_URL: url, LOG_LEVEL_FILE: file('level', 'debug') });
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('takes the SASL password and the client key from files', () => {
    // A key made for this test: none is kept in the repository.
    const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trimEnd();
    const config = loadConfig(KafkaEnv, {
      KAFKA_TLS: 'true',
      KAFKA_TLS_CERT_FILE: file('client.crt', 'certificate'),
      KAFKA_TLS_KEY_FILE: file('client.key', `${key}\n`),
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'hookrail-relay',
      KAFKA_SASL_PASSWORD_FILE: file('kafka-password', 'pw-from-file\n'),
    });
    expect(config).toMatchObject({ KAFKA_TLS: true, KAFKA_TLS_KEY: key, KAFKA_SASL_PASSWORD: 'pw-from-file' });
  });

  it('names what is missing or wrong in a Kafka connection', () => {
    expect(
      problemsOf(() =>
        loadConfig(KafkaEnv, {
          KAFKA_TLS: 'yes',
          KAFKA_TLS_CA_FILE: path.join(dir, 'no-ca.pem'),
          KAFKA_SASL_MECHANISM: 'scram-sha-1',
        }),
      ),
    ).toEqual([
      'KAFKA_TLS is invalid: must be true or false',
      'KAFKA_TLS_CA_FILE is invalid: must name a readable file',
      'KAFKA_SASL_MECHANISM is invalid: must be one of plain, scram-sha-256, scram-sha-512',
      'KAFKA_SASL_USERNAME is required but not set',
      'KAFKA_SASL_PASSWORD is required but not set',
    ]);
    expect(problemsOf(() => loadConfig(KafkaEnv, { KAFKA_SASL_MECHANISM: 'plain' }))).toEqual([
      'KAFKA_SASL_USERNAME is required but not set',
      'KAFKA_SASL_PASSWORD is required but not set',
    ]);
    expect(problemsOf(() => loadConfig(KafkaEnv, { KAFKA_TLS_CERT_FILE: file('only-cert.crt', 'c') }))).toEqual([
      'KAFKA_TLS_KEY is required but not set',
    ]);
    expect(
      problemsOf(() =>
        loadConfig(KafkaEnv, {
          KAFKA_SASL_PROVIDER: file('provider.js', 'exports.sasl = () => ({})'),
          KAFKA_SASL_MECHANISM: 'plain',
          KAFKA_SASL_USERNAME: 'u',
          KAFKA_SASL_PASSWORD: 'p',
        }),
      ),
    ).toEqual(['KAFKA_SASL_PROVIDER is invalid: may not be set together with KAFKA_SASL_MECHANISM']);
  });
});
