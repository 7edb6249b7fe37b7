import { AppProcess, cleanEnv, createTestDatabase, TestDatabase } from '@app/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A Standard Webhooks source's secret that is not base64 stops the ingress at start with one line that says which. */
describe('the ingress with a malformed Standard Webhooks secret in its sources file', () => {
  let database: TestDatabase;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-source-secrets-'));
  const sources = path.join(dir, 'sources.json');

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ingressStartedWith(secrets: string[], env: Record<string, string> = {}) {
    writeFileSync(
      sources,
      JSON.stringify([
        { name: 'github', scheme: 'github', secrets: ['plain-text-is-fine-here'], topic: 'github.events' },
        { name: 'shop', scheme: 'standard-webhooks', secrets, topic: 'shop.orders' },
      ]),
    );
    const child = AppProcess.start(
      'ingress',
      cleanEnv({ DATABASE_URL: database.url, HOOKRAIL_SOURCES: sources, ADMIN_TOKEN: 'a'.repeat(32), ...env }),
    );
    const exited = await child.exited;
    return { ...exited, stderr: child.stderr.trim() };
  }

  it('names the source, the secret (and its variable) and what a valid one looks like', async () => {
    const started = await ingressStartedWith(['env:SHOP_WEBHOOK_SECRET'], { SHOP_WEBHOOK_SECRET: 'whsec_…' });
    expect(started.code).toBe(1);
    expect(started.stderr).not.toContain('Base64Coder');
    expect(started.stderr).toBe(
      `ingress: configuration error: HOOKRAIL_SOURCES ${sources}: source #2 (shop): secrets[0] (env:SHOP_WEBHOOK_SECRET) ` +
        'is not a Standard Webhooks signing secret: it still holds the placeholder "…"; a valid one is whsec_ followed ' +
        'by random bytes in base64 (letters, digits, "+" and "/", padded with "=" to a multiple of 4 characters), e.g. ' +
        'whsec_ and the output of `openssl rand -base64 32`',
    );
  });

  it('says where a secret written in the file goes wrong, without quoting it', async () => {
    const good = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
    const started = await ingressStartedWith([good, 'whsec_c2VjcmV0LXZhbHVl-x']);
    expect(started.code).toBe(1);
    expect(started.stderr).toMatch(
      /: source #2 \(shop\): secrets\[1\] is not a Standard Webhooks signing secret: character 23 is a character that base64 does not use; a valid one is whsec_/,
    );
    expect(started.stderr).not.toContain('c2VjcmV0LXZhbHVl');
  });
});
