import { useTestDataSource } from '@app/testing';
import { AccessTokens, issueToken, tokenHash } from './access-tokens';
import { OperatorTokensRepository } from './operator-tokens.repository';
import { createOperatorToken, revokeOperatorToken } from './token-admin';

describe('operator tokens on Postgres', () => {
  const db = useTestDataSource('access-tokens');
  const BOOTSTRAP = 'bootstrap-admin-token-0123456789';
  const repo = () => new OperatorTokensRepository(db.dataSource);
  const access = () => new AccessTokens(BOOTSTRAP, repo());

  it('issues a token that authenticates as its identity, storing its digest and never the token', async () => {
    const { token, identity } = await issueToken(repo(), {
      name: 'ledger-ops',
      role: 'operator',
      groups: ['ledger'],
      createdBy: 'cli:ada',
    });
    expect(token).toMatch(/^hrk_[A-Za-z0-9_-]{43}$/);
    expect(identity).toEqual({ name: 'ledger-ops', role: 'operator', groups: ['ledger'], sources: null });
    expect(await access().authenticate(token)).toEqual(identity);

    const [row] = await db.dataSource.query(`SELECT * FROM operator_tokens WHERE name = 'ledger-ops'`);
    expect(row.token_hash).toBe(tokenHash(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await repo().list())[0]).not.toHaveProperty('tokenHash');
  });

  it('refuses a revoked token at once, naming when it was revoked, and audits the revocation', async () => {
    const { token } = await createOperatorToken(db.dataSource, {
      name: 'to-revoke',
      role: 'viewer',
      createdBy: 'cli:ada',
    });
    const tokens = access();
    expect(await tokens.authenticate(token)).toMatchObject({ name: 'to-revoke' });
    await revokeOperatorToken(db.dataSource, 'to-revoke', 'cli:bob');
    const refused = await tokens.authenticate(token);
    expect(refused).toEqual({ refused: expect.stringMatching(/^token to-revoke was revoked at \d{4}-.+Z$/) });
    await expect(revokeOperatorToken(db.dataSource, 'to-revoke', 'cli:bob')).rejects.toThrow(
      /token 'to-revoke' was already revoked at/,
    );
    const audit = await db.dataSource.query(
      `SELECT actor, action, details FROM operator_audit WHERE subject_type = 'operator-token' AND subject_id = 'to-revoke' ORDER BY id`,
    );
    expect(audit).toEqual([
      {
        actor: 'cli:ada',
        action: 'token-created',
        details: { role: 'viewer', groups: null, sources: null, expiresAt: null },
      },
      { actor: 'cli:bob', action: 'token-revoked', details: {} },
    ]);
  });

  it('refuses an expired token and an unknown one', async () => {
    const expiresAt = new Date(Date.now() - 60_000);
    await repo().insert({
      name: 'old',
      role: 'viewer',
      groups: null,
      sources: null,
      tokenHash: tokenHash('hrk_old'),
      createdBy: 'cli:ada',
      expiresAt,
    });
    expect(await access().authenticate('hrk_old')).toEqual({
      refused: `token old expired at ${expiresAt.toISOString()}`,
    });
    expect(await access().authenticate('hrk_nobody')).toEqual({ refused: 'the bearer token is not valid' });
    expect(await access().authenticate('')).toEqual({ refused: 'the bearer token is not valid' });
  });

  it('refuses a duplicate name, and a request the role does not allow', async () => {
    await issueToken(repo(), { name: 'twice', role: 'viewer', createdBy: 'cli:ada' });
    await expect(issueToken(repo(), { name: 'twice', role: 'admin', createdBy: 'cli:ada' })).rejects.toThrow(
      "a token named 'twice' already exists",
    );
    await expect(
      issueToken(repo(), { name: 'adm', role: 'admin', groups: ['ledger'], createdBy: 'cli:ada' }),
    ).rejects.toThrow('an admin token cannot be limited to groups');
    await expect(
      issueToken(repo(), { name: 'ops', role: 'operator', groups: ['nope'], knownGroups: ['ledger'], createdBy: 'x' }),
    ).rejects.toThrow("unknown consumer group 'nope' (known: ledger)");
    await expect(issueToken(repo(), { name: 'bad name', role: 'viewer', createdBy: 'x' })).rejects.toThrow(
      'the token name "bad name" must be',
    );
    await expect(issueToken(repo(), { name: 'r', role: 'root', createdBy: 'x' })).rejects.toThrow(
      'the role "root" is not one of viewer, operator, admin, status',
    );
  });

  it('keeps groups off admin and status tokens in the table itself', async () => {
    const insert = (role: string) =>
      db.dataSource.query(
        `INSERT INTO operator_tokens (name, role, groups, token_hash, created_by) VALUES ($1, $1, '{ledger}', $1, 'x')`,
        [role],
      );
    await expect(insert('admin')).rejects.toThrow(/ck_operator_tokens_groups/);
    await expect(insert('status')).rejects.toThrow(/ck_operator_tokens_groups/);
    await expect(insert('root')).rejects.toThrow(/ck_operator_tokens_role/);
  });

  it('takes the bootstrap token as the admin, and only that exact token', async () => {
    expect(await access().authenticate(BOOTSTRAP)).toEqual({
      name: 'admin',
      role: 'admin',
      groups: null,
      sources: null,
    });
    expect(await access().authenticate(`${BOOTSTRAP}x`)).toEqual({ refused: 'the bearer token is not valid' });
    expect(await new AccessTokens(undefined, repo()).authenticate(BOOTSTRAP)).toEqual({
      refused: 'the bearer token is not valid',
    });
  });

  it('issues a status token limited to sources', async () => {
    const { token } = await issueToken(repo(), {
      name: 'shop-status',
      role: 'status',
      sources: ['shop'],
      createdBy: 'cli:ada',
    });
    expect(await access().authenticate(token)).toEqual({
      name: 'shop-status',
      role: 'status',
      groups: null,
      sources: ['shop'],
    });
  });
});
