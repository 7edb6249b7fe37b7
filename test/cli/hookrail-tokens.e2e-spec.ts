import { AccessTokens, OperatorTokensRepository } from '@app/access';
import { useTestDataSource } from '@app/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { hookrailInProcess } from './hookrail-in-process';

describe('hookrail tokens', () => {
  const db = useTestDataSource('cli-tokens-test');
  const hookrail = (...args: string[]) => hookrailInProcess(db.database.url, args, { HOOKRAIL_OPERATOR: 'ada' });
  /** The bin itself, as an operator runs it: the one run that prints a token. */
  const hookrailProcess = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [path.resolve(__dirname, '../../bin/hookrail'), ...args],
        { env: { ...process.env, DATABASE_URL: db.database.url, HOOKRAIL_OPERATOR: 'ada' }, timeout: 30_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const tokenRows = async () =>
    (await db.dataSource.query(`SELECT count(*)::int AS n FROM operator_tokens`))[0].n as number;
  const auditRows = (name: string) =>
    db.dataSource.query(
      `SELECT actor, action, details FROM operator_audit WHERE subject_type = 'operator-token' AND subject_id = $1 ORDER BY id`,
      [name],
    );

  it('creates a token shown once, lists it without the token, revokes it once, and audits both', async () => {
    const created = await hookrailProcess(
      'tokens',
      'create',
      'ledger-ops',
      '--role',
      'operator',
      '--groups',
      'ledger,notifier',
      '--expires',
      '30d',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const token = created.stdout.split('\n').find((line) => line.startsWith('hrk_'))!;
    expect(token).toMatch(/^hrk_[A-Za-z0-9_-]{43}$/);
    expect(created.stdout).toContain('shown only once');
    expect(created.stdout.split(token)).toHaveLength(2);

    const access = new AccessTokens(undefined, new OperatorTokensRepository(db.dataSource));
    expect(await access.authenticate(token)).toEqual({
      name: 'ledger-ops',
      role: 'operator',
      groups: ['ledger', 'notifier'],
      sources: null,
    });

    const [table, json] = await Promise.all([hookrail('tokens', 'list'), hookrail('tokens', 'list', '--json')]);
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^name\s+role\s+groups\s+sources\s+created\s+expires\s+state$/);
    expect(lines[2]).toMatch(/^ledger-ops\s+operator\s+ledger,notifier\s+\S+Z\s+\S+Z\s+live$/);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ name: 'ledger-ops', role: 'operator', state: 'live', createdBy: 'cli:ada' }),
    ]);
    for (const listed of [table.stdout, json.stdout]) {
      expect(listed).not.toContain(token);
      expect(listed).not.toMatch(/[0-9a-f]{64}/);
    }

    expect(await hookrail('tokens', 'revoke', 'ledger-ops')).toMatchObject({
      code: 0,
      stdout: "revoked token 'ledger-ops': it is refused from now on",
    });
    expect(await access.authenticate(token)).toEqual({
      refused: expect.stringMatching(/^token ledger-ops was revoked at /),
    });
    const again = await hookrail('tokens', 'revoke', 'ledger-ops');
    expect(again).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^hookrail: token 'ledger-ops' was already revoked at \S+$/),
    });
    expect((await hookrail('tokens', 'list')).stdout.split('\n')[2]).toMatch(/revoked$/);

    const audit = await auditRows('ledger-ops');
    expect(audit).toEqual([
      {
        actor: 'cli:ada',
        action: 'token-created',
        details: { role: 'operator', groups: ['ledger', 'notifier'], sources: null, expiresAt: expect.any(String) },
      },
      { actor: 'cli:ada', action: 'token-revoked', details: {} },
    ]);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('refuses a bad role, an unknown group, a bad expiry and a taken name in one line, writing nothing', async () => {
    await hookrail('tokens', 'create', 'taken', '--role', 'viewer');
    const [rows, audits] = [await tokenRows(), (await auditRows('bad')).length];
    const cases: Array<[string[], number, string]> = [
      [['--role', 'root'], 2, 'hookrail: the role "root" is not one of viewer, operator, admin, status'],
      [['--role', 'viewer', '--groups', 'ledger,nope'], 2, "hookrail: unknown consumer group 'nope' (known: ledger,"],
      [['--role', 'admin', '--groups', 'ledger'], 2, 'hookrail: an admin token cannot be limited to groups'],
      [['--role', 'viewer', '--expires', 'soon'], 2, 'hookrail: the expiry "soon" is neither a duration'],
      [['--role', 'viewer', '--expires', '2020-01-01'], 2, 'hookrail: the expiry "2020-01-01" is not in the future'],
      [[], 2, 'hookrail: tokens create needs --role'],
    ];
    for (const [options, code, message] of cases) {
      const result = await hookrail('tokens', 'create', 'bad', ...options);
      expect({ code: result.code, out: result.stdout }).toEqual({ code, out: '' });
      expect(result.stderr.split('\n')).toEqual([expect.stringContaining(message)]);
    }
    const duplicate = await hookrail('tokens', 'create', 'taken', '--role', 'admin');
    expect(duplicate).toMatchObject({
      code: 1,
      stderr: "hookrail: a token named 'taken' already exists (names stay taken after a revocation)",
    });
    expect(await hookrail('tokens', 'revoke', 'nobody')).toMatchObject({
      code: 1,
      stderr: "hookrail: no token is named 'nobody'",
    });
    expect([await tokenRows(), (await auditRows('bad')).length]).toEqual([rows, audits]);
  });

  it('prints the tokens commands in its usage', async () => {
    const help = await hookrail('--help');
    expect(help.stdout).toContain('hookrail tokens create <name> --role viewer|operator|admin|status');
    expect(help.stdout).toContain('hookrail tokens revoke <name>');
  });
});
