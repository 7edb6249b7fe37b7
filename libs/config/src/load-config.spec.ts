import { BaseEnv } from './base.env';
import { ConfigError } from './config-error';
import { loadConfig } from './load-config';

describe('loadConfig', () => {
  const valid = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/hookrail' };

  it('builds a typed config with defaults', () => {
    const config = loadConfig(BaseEnv, { ...valid, KAFKA_BROKERS: 'a:9092, b:9093' });
    expect(config.KAFKA_BROKERS).toEqual(['a:9092', 'b:9093']);
    expect(config.LOG_LEVEL).toBe('info');
  });

  it('names a missing variable', () => {
    expect(() => loadConfig(BaseEnv, {})).toThrow(
      new ConfigError('configuration error: DATABASE_URL is required but not set'),
    );
  });

  it('names a malformed variable without echoing its value', () => {
    const secret = 'mysql://user:hunter2@db/x';
    let message = '';
    try {
      loadConfig(BaseEnv, { DATABASE_URL: secret });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^configuration error: DATABASE_URL is invalid: must be a postgres:\/\/ URL/);
    expect(message).not.toContain('hunter2');
  });

  it('rejects a bad broker list and an unknown log level', () => {
    expect(() => loadConfig(BaseEnv, { ...valid, KAFKA_BROKERS: 'nohost' })).toThrow(/KAFKA_BROKERS is invalid/);
    expect(() => loadConfig(BaseEnv, { ...valid, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL is invalid: must be one of/);
  });

  it('names every problem in one message, so that one start tells all of it', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig(BaseEnv, { KAFKA_BROKERS: 'nohost', LOG_LEVEL: 'loud' });
    } catch (thrown) {
      error = thrown as ConfigError;
    }
    expect(error?.problems).toEqual([
      'DATABASE_URL is required but not set',
      expect.stringMatching(/^LOG_LEVEL is invalid: must be one of/),
      expect.stringMatching(/^KAFKA_BROKERS is invalid/),
    ]);
    expect(error?.message).toMatch(
      /^configuration error \(3 problems\): DATABASE_URL is required but not set; LOG_LEVEL is invalid: .*; KAFKA_BROKERS is invalid: /,
    );
  });
});
