import { connect } from '@app/db';
import { createTestDatabase, DeadLetterScenario, orderEvent, TestDatabase } from '@app/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../../apps/cli/src/main';

const bin = path.resolve(__dirname, '../../bin/hookrail');

describe('hookrail CLI on real Kafka and Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let scenario: DeadLetterScenario;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'cli-test', poolSize: 6 });
    scenario = await DeadLetterScenario.start(dataSource);
  });

  afterAll(async () => {
    await scenario?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  /** Runs a command the way bin/hookrail does, in this process (starting node for each would dominate the test). */
  async function hookrail(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { ...process.env, DATABASE_URL: database.url, HOOKRAIL_OPERATOR: 'ops-team' };
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runCli(
      args,
      (text) => stdout.push(text),
      (text) => stderr.push(text),
      env,
    );
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
  }

  /** The bin itself, as an operator runs it. */
  function hookrailProcess(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [bin, ...args],
        { cwd: path.resolve(__dirname, '..'), timeout: 30_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('prints its usage, and rejects a command without a selection', async () => {
    const [help, bare] = await Promise.all([hookrailProcess('--help'), hookrail('dlq', 'purge')]);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('hookrail dlq replay') });
    expect(bare).toMatchObject({ code: 2, stderr: expect.stringContaining('needs ids or a filter') });
  });

  it('lists and shows dead letters, replays with a dry run first, purges, and audits both as the operator', async () => {
    const events = [orderEvent('order-cli-1'), orderEvent('order-cli-2')];
    await scenario.publish(events);
    const [first, second] = await Promise.all(events.map((event) => scenario.deadLetterOf(event.id)));

    const [table, show] = await Promise.all([
      hookrail('dlq', 'list', '--group', scenario.failing.group),
      hookrail('dlq', 'show', first.id, '--json'),
    ]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+group\s+owner\s+type\s+key\s+errorClass/);
    expect(table.stdout).toContain(first.id);
    const json = JSON.parse(show.stdout);
    expect(json).toMatchObject({ id: first.id, key: 'order-cli-1', errorClass: 'PermanentError', status: 'dead' });

    const dry = await hookrail('dlq', 'replay', '--key', 'order-cli-1', '--dry-run');
    expect(dry.stdout).toContain('dry run: would replay 1 dead letter(s); nothing changed');
    expect(await scenario.endOffset(scenario.failing.replayTopic)).toBe(0);

    const replay = await hookrail('dlq', 'replay', first.id, '--rate', '10');
    expect(replay.stdout).toContain(`replayed 1 of 1 matching dead letter(s) as cli:ops-team: ${first.id}`);
    await scenario.deadLetterOf(events[0].id, (row) => row.status === 'dead' && row.replay_count === 1);

    const purge = JSON.parse((await hookrail('dlq', 'purge', second.id, '--as', 'lin', '--json')).stdout);
    expect(purge).toMatchObject({ dryRun: false, matched: 1, purged: [second.id] });
    const audit = await dataSource.query(
      `SELECT actor, action, count FROM operator_audit WHERE subject_type = 'dead-letters' ORDER BY id`,
    );
    expect(audit).toEqual([
      { actor: 'cli:ops-team', action: 'replay', count: 1 },
      { actor: 'cli:lin', action: 'purge', count: 1 },
    ]);
  });

  it('shows the outbox backlog, the lag per group and topic, and with --partitions per partition', async () => {
    const [backlogRun, lag, partitions] = await Promise.all([
      hookrail('outbox', 'backlog', '--json'),
      hookrail('lag', '--group', scenario.healthy.group),
      hookrail('lag', '--group', scenario.healthy.group, '--partitions'),
    ]);
    expect(JSON.parse(backlogRun.stdout)).toEqual({ unpublished: 0, parked: 0, oldestAgeSeconds: 0, byTopic: [] });
    expect(lag.code).toBe(0);
    // One line per group and topic: partitions, lag, worst partition, its lag.
    const lines = lag.stdout.split('\n').filter((line) => line.includes(scenario.inputTopic));
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^${scenario.healthy.group}\\s+–\\s+${scenario.inputTopic}\\s+\\d+\\s+0\\s+\\d+\\s+0$`),
      ),
    ]);
    expect(lag.stdout.split('\n')[0]).toMatch(
      /^groupId\s+worksBy\s+topic\s+partitions\s+lag\s+worstPartition\s+worstLag$/,
    );
    expect(partitions.stdout).toMatch(
      new RegExp(`${scenario.healthy.group}\\s+–\\s+${scenario.inputTopic}\\s+0\\s+\\d+\\s+\\d+\\s+0`),
    );
  });
});
