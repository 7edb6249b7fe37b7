import { writeDevelopmentEnv } from '@app/config';
import { DEFAULT_DATABASE_URL } from '@app/db';
import { freePort } from '@app/testing';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Ingress, secrets, startIngress } from './ingress-harness';

const root = path.resolve(__dirname, '../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run -s webhook:send -- <args>` as a user types it, against INGRESS_URL with SHOP_WEBHOOK_SECRET. */
function webhookSend(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) =>
    execFile(
      'npm',
      ['run', '-s', 'webhook:send', '--', ...args],
      // A profile of its own (none, unless a test writes one), and time to build dist/ when a source changed.
      { cwd: root, env: { ...process.env, HOOKRAIL_DEV_ENV: profile, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-send-webhook-'));
const profile = path.join(dir, 'dev.env');

describe('npm run webhook:send', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(async () => {
    await ingress?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 when the ingress accepts the webhook', async () => {
    const sent = await webhookSend({ INGRESS_URL: ingress.url, SHOP_WEBHOOK_SECRET: secrets.standard[0] });
    expect(sent).toMatchObject({ code: 0, stderr: '' });
    expect(sent.stdout).toMatch(
      /^POST http:\S+\/webhooks\/shop \(webhook-id msg_[0-9a-f]+\) \{"type":"shop\.order\.placed\.v1","orderId":"ord_[0-9a-f]{8}"\} → 202 \{"id":"/,
    );
  }, 150_000);

  it('signs with the secret npm start keeps when SHOP_WEBHOOK_SECRET is not set', async () => {
    const { SHOP_WEBHOOK_SECRET: _unset, ...env } = process.env;
    writeDevelopmentEnv(profile, { DATABASE_URL: DEFAULT_DATABASE_URL, SHOP_WEBHOOK_SECRET: secrets.standard[1] });
    try {
      const sent = await new Promise<Run>((resolve) =>
        execFile(
          'npm',
          ['run', '-s', 'webhook:send'],
          { cwd: root, env: { ...env, DATABASE_URL: '', HOOKRAIL_DEV_ENV: profile, INGRESS_URL: ingress.url } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        ),
      );
      expect(sent).toMatchObject({ code: 0, stderr: '' });
      expect(sent.stdout).toContain('→ 202');
    } finally {
      rmSync(profile, { force: true });
    }
    const missing = await webhookSend({ INGRESS_URL: ingress.url, SHOP_WEBHOOK_SECRET: '' });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('set SHOP_WEBHOOK_SECRET');
  });

  it('exits 1 on a 401 and says the secret is not the one the ingress has for the source', async () => {
    const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const sent = await webhookSend({ INGRESS_URL: ingress.url, SHOP_WEBHOOK_SECRET: other });
    expect(sent.code).toBe(1);
    expect(sent.stdout).toMatch(/→ 401 \{"error":"invalid_signature"/);
    expect(sent.stderr.trim()).toBe(
      'webhook:send: the ingress refused the signature (401): SHOP_WEBHOOK_SECRET is not a secret of its "shop" ' +
        'source; use the one the ingress was started with (npm start prints it)',
    );
  });

  it('exits 1 when the ingress cannot take it now, saying when to try again', async () => {
    const overloaded = createServer((_request, response) =>
      response
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' })
        .end('{"error":"overloaded","message":"too many deliveries wait for a commit"}'),
    );
    await new Promise<void>((resolve) => overloaded.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(overloaded.address() as AddressInfo).port}`;
      const sent = await webhookSend({ INGRESS_URL: url, SHOP_WEBHOOK_SECRET: secrets.standard[0] });
      expect(sent.code).toBe(1);
      expect(sent.stderr.trim()).toBe(
        'webhook:send: the ingress cannot take webhooks right now (503 overloaded: too many deliveries wait for a commit); try again in 5 s',
      );
    } finally {
      overloaded.close();
    }
  });

  it('exits 1 naming INGRESS_URL when nothing answers there', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const sent = await webhookSend({ INGRESS_URL: url, SHOP_WEBHOOK_SECRET: secrets.standard[0] });
    expect(sent).toMatchObject({ code: 1, stdout: '' });
    expect(sent.stderr.trim()).toBe(
      `webhook:send: nothing answers at INGRESS_URL=${url} (ECONNREFUSED); is the ingress running (npm start)?`,
    );
  });

  it('exits 2 before sending anything when SHOP_WEBHOOK_SECRET is not a Standard Webhooks secret', async () => {
    const before = await ingress.count('inbound_events');
    const sent = await webhookSend({ INGRESS_URL: ingress.url, SHOP_WEBHOOK_SECRET: 'whsec_…' });
    expect(sent).toMatchObject({ code: 2, stdout: '' });
    expect(sent.stderr).not.toContain('Base64Coder');
    expect(sent.stderr.trim()).toMatch(
      /^webhook:send: SHOP_WEBHOOK_SECRET is not a Standard Webhooks signing secret: it still holds the placeholder "…"; a valid one is whsec_ followed by /,
    );
    expect(await ingress.count('inbound_events')).toBe(before);
  });
});
