import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { developmentEnvFile, readDevelopmentEnv, withDevelopmentEnv, writeDevelopmentEnv } from './development-env';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/hookrail';

describe('the development profile of npm start', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookrail-profile-')), 'nested', 'dev.env');
  const profile = {
    ADMIN_TOKEN: 'token-1',
    OUTBOUND_WEBHOOKS_ALLOW_HTTP: 'true',
    SHOP_WEBHOOK_SECRET: 'whsec_c2VjcmV0PXdpdGgtZXF1YWxz',
    DATABASE_URL: DEFAULT_URL,
  };

  beforeAll(() => writeDevelopmentEnv(file, profile));

  it('is written for its owner only and read back as written (values may hold "=")', () => {
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readDevelopmentEnv(file)).toEqual(profile);
    expect(readDevelopmentEnv(`${file}.missing`)).toBeUndefined();
  });

  it('fills what the environment leaves unset, for the installation it belongs to', () => {
    const merged = withDevelopmentEnv({ ADMIN_TOKEN: 'mine' }, file, DEFAULT_URL);
    expect(merged).toMatchObject({ ADMIN_TOKEN: 'mine', OUTBOUND_WEBHOOKS_ALLOW_HTTP: 'true' });
    expect(merged.DATABASE_URL).toBeUndefined();
    expect(withDevelopmentEnv({ DATABASE_URL: DEFAULT_URL }, file, DEFAULT_URL).SHOP_WEBHOOK_SECRET).toBe(
      profile.SHOP_WEBHOOK_SECRET,
    );
  });

  it('leaves another installation alone: its allowances never reach a database it was not made for', () => {
    const production = { DATABASE_URL: 'postgres://ops@db.internal:5432/hookrail' };
    expect(withDevelopmentEnv(production, file, DEFAULT_URL)).toBe(production);
    expect(withDevelopmentEnv({}, undefined, DEFAULT_URL)).toEqual({});
  });

  it('lives in .hookrail/dev.env of the repository unless HOOKRAIL_DEV_ENV names another file', () => {
    expect(developmentEnvFile({}, '/repo')).toBe(path.join('/repo', '.hookrail', 'dev.env'));
    expect(developmentEnvFile({ HOOKRAIL_DEV_ENV: '/elsewhere/dev.env' }, '/repo')).toBe('/elsewhere/dev.env');
    expect(developmentEnvFile({}, undefined)).toBeUndefined();
  });
});
