import { createTestDatabase, TestDatabase } from '@app/testing';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { runCli } from '../../apps/cli/src/main';

const bin = path.resolve(__dirname, '../../bin/hookrail');

describe('hookrail endpoints and deliveries (CLI on a real Postgres)', () => {
  let database: TestDatabase;
  let db: Client;
  const env = () => ({
    ...process.env,
    DATABASE_URL: database.url,
    HOOKRAIL_OPERATOR: 'ops-team',
    OUTBOUND_WEBHOOKS_ALLOW_HOSTS: 'hooks.test',
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await database?.drop();
  });

  /** Runs a command the way bin/hookrail does, in this process. */
  async function hookrail(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(
      args,
      (text) => stdout.push(text),
      (text) => stderr.push(text),
      env(),
    );
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  }

  it('adds an endpoint (through the bin), printing its secret once; lists, shows, disables, enables, rotates', async () => {
    const added = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          bin,
          'endpoints',
          'add',
          'https://hooks.test/orders',
          '--event-type',
          'shop.order.*',
          '--event-type',
          'github.push',
          '--ordered',
        ],
        { env: env(), timeout: 30_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const secret = /signing secret \(shown this once; give it to the receiver\): (whsec_\S+)/.exec(added.stdout)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const id = /^id:\s+(\S+)$/m.exec(added.stdout)?.[1] as string;
    expect(added.stdout).toMatch(/^eventTypes:\s+shop\.order\.\*, github\.push$/m);
    expect(added.stdout).toMatch(/^ordered:\s+true$/m);
    // Its failed deliveries as a count, never as "[object Object]".
    expect(added.stdout).toMatch(/^failed:\s+0$/m);
    expect(added.stdout).not.toContain('[object Object]');

    const list = await hookrail('endpoints', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('https://hooks.test/orders');
    const shown = await hookrail('endpoints', 'show', id, '--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({ id, state: 'enabled', secrets: [{ expiresAt: null }] });
    for (const output of [list.stdout, shown.stdout]) expect(output).not.toContain(secret!.slice(6));

    expect((await hookrail('endpoints', 'disable', id, '--reason', 'receiver migrating')).stdout).toMatch(
      /^disabledReason:\s+disabled by cli:ops-team: receiver migrating$/m,
    );
    expect((await hookrail('endpoints', 'enable', id)).stdout).toMatch(/^state:\s+enabled$/m);
    const rotated = await hookrail('endpoints', 'rotate-secret', id, '--overlap', '2h', '--json');
    const after = JSON.parse(rotated.stdout);
    expect(after.secret).toMatch(/^whsec_/);
    expect(after.secret).not.toBe(secret);
    expect(after.secrets).toHaveLength(2);
    const { rows: audit } = await db.query(
      `SELECT actor, action FROM operator_audit WHERE subject_id = $1 ORDER BY id`,
      [id],
    );
    expect(audit).toEqual([
      { actor: 'cli:ops-team', action: 'create' },
      { actor: 'cli:ops-team', action: 'disable' },
      { actor: 'cli:ops-team', action: 'enable' },
      { actor: 'cli:ops-team', action: 'rotate-secret' },
    ]);
  });

  it('refuses a URL on the operator network or a bad filter as a usage error, with the reason', async () => {
    const refused = await hookrail('endpoints', 'add', 'https://169.254.169.254/latest', '--event-type', '*');
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toBe(
      'hookrail: the URL is refused: 169.254.169.254 is a cloud metadata address; such addresses are reachable only through OUTBOUND_WEBHOOKS_ALLOW_HOSTS',
    );
    const badFilter = await hookrail('endpoints', 'add', 'https://hooks.test/x', '--event-type', 'shop.*.placed');
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toContain('each event type must be a type');
    expect((await hookrail('endpoints', 'add', 'https://hooks.test/x')).stderr).toContain(
      'eventTypes must list at least one',
    );
    expect((await hookrail('endpoints', 'show', randomUUID())).code).toBe(1);
  });

  it('lists an endpoint’s deliveries and replays those since a time, dry run first', async () => {
    const added = JSON.parse(
      (await hookrail('endpoints', 'add', 'https://hooks.test/log', '--event-type', '*', '--json')).stdout,
    );
    const insert = async (state: string, ago: string) =>
      (
        await db.query(
          `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                           source_topic, source_partition, source_offset, state, attempts, created_at, failed_at)
           VALUES ($1, $2, 'shop.order.placed.v1', '/tests', now(), 'k', '{}', 'shop.orders', 0, '0', $3, 8, now() - $4::interval,
                   now() - $4::interval)
           RETURNING id::text`,
          [added.id, randomUUID(), state, ago],
        )
      ).rows[0].id as string;
    const old = await insert('failed', '2 days');
    const recent = await insert('failed', '1 hour');
    const shown = await hookrail('endpoints', 'show', added.id);
    expect(shown.stdout).toMatch(/^failed:\s+2 \(the latest failed at \d{4}-\d\d-\d\dT\S+Z\)$/m);
    expect(shown.stdout).not.toContain('[object Object]');
    expect((await hookrail('endpoints', 'list')).stdout).toMatch(new RegExp(`^${added.id}\\s.*\\s2\\s+1\\s*$`, 'm'));
    const listed = await hookrail('deliveries', 'list', added.id, '--status', 'failed', '--since', '1d');
    expect(listed.stdout).toContain(recent);
    expect(listed.stdout).not.toContain(`\n${old} `);
    const dryRun = await hookrail('deliveries', 'replay', added.id, '--since', '1d', '--dry-run');
    expect(dryRun.stdout).toMatch(/^dry run: would send 1 delivery\(ies\) again; nothing changed/);
    const replayed = await hookrail('deliveries', 'replay', added.id, '--since', '1d');
    expect(replayed.stdout).toBe(`queued 1 of 1 delivery(ies) again as cli:ops-team: ${recent}`);
    const { rows } = await db.query(
      `SELECT id::text, state FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id`,
      [added.id],
    );
    expect(rows).toEqual([
      { id: old, state: 'failed' },
      { id: recent, state: 'pending' },
    ]);
    expect((await hookrail('deliveries', 'replay', added.id)).code).toBe(2);
  });

  it('sends a pending delivery now instead of at its next attempt (deliveries retry); replay says to use it', async () => {
    const added = JSON.parse(
      (await hookrail('endpoints', 'add', 'https://hooks.test/retry', '--event-type', '*', '--json')).stdout,
    );
    const [{ id }] = (
      await db.query(
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                         source_topic, source_partition, source_offset, state, attempts, next_attempt_at)
         VALUES ($1, $2, 'shop.order.placed.v1', '/tests', now(), 'k', '{}', 'shop.orders', 0, '0', 'pending', 3,
                 now() + interval '5 minutes')
         RETURNING id::text`,
        [added.id, randomUUID()],
      )
    ).rows;
    const replay = await hookrail('deliveries', 'replay', added.id, id);
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(
      /is pending \(its next attempt is due at \S+\): it is already queued; retry it to send it now$/,
    );

    const retried = await hookrail('deliveries', 'retry', added.id, id);
    expect(retried).toMatchObject({ code: 0, stderr: '' });
    expect(retried.stdout).toBe(
      `delivery ${id} is due now as cli:ops-team: the next free worker sends it (attempt 4; the schedule goes on from there)`,
    );
    const { rows } = await db.query(
      `SELECT next_attempt_at <= now() AS due, attempts, replay_count FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
    expect(rows).toEqual([{ due: true, attempts: 3, replay_count: 0 }]);
    expect((await hookrail('deliveries', 'retry', added.id)).code).toBe(2);
  });
});
