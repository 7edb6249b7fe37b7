import { useTestDataSource } from '@app/testing';
import { customerTokenHash } from '@app/webhooks';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { hookrailInProcess } from '../cli/hookrail-in-process';

describe('hookrail customers', () => {
  const db = useTestDataSource('cli-customers-test');
  const env = { HOOKRAIL_OPERATOR: 'ada', OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test' };
  const hookrail = (...args: string[]) => hookrailInProcess(db.database.url, args, env);
  /** The bin itself, as an operator runs it: the run that prints a token. */
  const hookrailProcess = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [path.resolve(__dirname, '../../bin/hookrail'), ...args],
        { env: { ...process.env, DATABASE_URL: db.database.url, ...env }, timeout: 30_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('adds a customer, its endpoint, a token printed once and a portal link, each audited', async () => {
    const added = await hookrail('customers', 'add', 'acme', '--name', 'Acme Corp');
    expect(added).toMatchObject({ code: 0 });
    expect(added.stdout).toMatch(/^customer acme \(/);
    expect((await hookrail('customers', 'add', 'acme', '--name', 'Again')).code).toBe(1);
    expect((await hookrail('customers', 'add', 'acme')).code).toBe(2);

    const endpoint = await hookrail(
      'endpoints',
      'add',
      'https://hooks.test/acme',
      '--event-type',
      '*',
      '--customer',
      'acme',
      '--json',
    );
    expect(endpoint.code).toBe(0);
    const [customer] = await db.dataSource.query(`SELECT id FROM webhook_customers WHERE uid = 'acme'`);
    expect(JSON.parse(endpoint.stdout).customerId).toBe(customer.id);
    expect(
      (await hookrail('endpoints', 'add', 'https://hooks.test/x', '--event-type', '*', '--customer', 'nobody')).code,
    ).toBe(1);

    const list = await hookrail('customers', 'list');
    expect(list.stdout.split('\n')[2]).toMatch(/^acme\s+Acme Corp\s+1\s+/);

    const token = await hookrailProcess('customers', 'token', 'acme', '--name', 'ci', '--expires', '30d');
    expect(token).toMatchObject({ code: 0, stderr: expect.any(String) });
    const printed = token.stdout.split('\n')[0];
    expect(printed).toMatch(/^hrc_[A-Za-z0-9_-]{43}$/);
    expect(token.stdout).toContain('shown only once');
    const [row] = await db.dataSource.query(`SELECT kind, name, token_hash, created_by FROM customer_tokens`);
    expect(row).toEqual({ kind: 'api', name: 'ci', token_hash: customerTokenHash(printed), created_by: 'cli:ada' });

    const link = await hookrail('customers', 'portal-link', 'acme');
    expect(link.code).toBe(0);
    expect(link.stdout).toMatch(/^http:\/\/127\.0\.0\.1:3200\/portal#link=hrc_/);

    const audit = await db.dataSource.query(
      `SELECT actor, action FROM operator_audit WHERE subject_type = 'webhook-customer' ORDER BY id`,
    );
    expect(audit).toEqual([
      { actor: 'cli:ada', action: 'create' },
      { actor: 'cli:ada', action: 'token-created' },
      { actor: 'cli:ada', action: 'portal-link-created' },
    ]);
  });
});
