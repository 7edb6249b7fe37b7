import { connect } from '@app/db';
import { createTestDatabase, orderEvent, ParkingScenario, TestDatabase, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { runCli } from '../../apps/cli/src/main';

describe('hookrail dlq on parked keys (real Kafka and Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let scenario: ParkingScenario;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'cli-parked-test', poolSize: 6 });
    scenario = await ParkingScenario.start(dataSource);
  });

  afterAll(async () => {
    await scenario?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  /** One command in this process; `answer` plays the operator at the terminal (none: no terminal). */
  async function hookrail(args: string[], answer?: boolean) {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const questions: string[] = [];
    const ask =
      answer === undefined
        ? undefined
        : async (question: string) => {
            questions.push(question);
            return answer;
          };
    const env = { ...process.env, DATABASE_URL: database.url, HOOKRAIL_OPERATOR: 'ops-team' };
    const code = await runCli(
      args,
      (text) => stdout.push(text),
      (text) => stderr.push(text),
      env,
      ask,
    );
    return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n'), questions };
  }

  async function parkKey(orderId: string) {
    const events = [1, 2, 3].map(() => orderEvent(orderId));
    scenario.rejected.add(events[0].id);
    await scenario.publish(events);
    const head = await scenario.deadLetterOf(events[0].id);
    await scenario.deadLetterOf(events[2].id, (row) => row.status === 'parked');
    return { events, head };
  }

  it('lists parked keys with their head and count, asks before a purge of the head releases them, and purges a key with --yes', async () => {
    const { events, head } = await parkKey('order-cli-park');
    const group = scenario.group;

    const list = await hookrail(['dlq', 'list', '--group', group]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('parked keys');
    expect(list.stdout).toMatch(
      new RegExp(`${group}\\s+order-cli-park\\s+${head.id}\\s+dead\\s+PermanentError\\s+2\\s`),
    );
    const parked = JSON.parse((await hookrail(['dlq', 'parked', '--group', group, '--json'])).stdout);
    expect(parked).toEqual([expect.objectContaining({ key: 'order-cli-park', parkedEvents: 2 })]);

    const noTerminal = await hookrail(['dlq', 'purge', head.id]);
    expect(noTerminal).toMatchObject({ code: 2, stderr: expect.stringContaining('run again with --yes') });
    expect(noTerminal.stdout).toContain(`dead letter ${head.id} holds key "order-cli-park"`);
    expect(noTerminal.stdout).toContain('2 parked event(s) wait behind it');
    const declined = await hookrail(['dlq', 'purge', head.id], false);
    expect(declined).toMatchObject({ code: 0, stdout: expect.stringContaining('not confirmed; nothing changed') });
    expect((await scenario.deadLetterOf(events[0].id)).status).toBe('dead');

    const confirmed = await hookrail(['dlq', 'purge', head.id], true);
    expect(confirmed.questions).toEqual([expect.stringContaining('[y/N]')]);
    expect(confirmed.stdout).toContain(`purged 1 of 1 matching dead letter(s) as cli:ops-team: ${head.id}`);
    await waitFor(async () => (await scenario.parkedKey('order-cli-park')) === undefined, { what: 'key released' });
    expect(await scenario.effects('order-cli-park')).toEqual([events[1].id, events[2].id]);

    await parkKey('order-cli-gone');
    const whole = await hookrail(['dlq', 'purge-key', '--group', group, '--key', 'order-cli-gone', '--yes']);
    expect(whole).toMatchObject({ code: 0 });
    expect(whole.stdout).toContain('purged 3 dead letter(s) and parked event(s) of key "order-cli-gone"');
    expect((await hookrail(['dlq', 'parked', '--group', group])).stdout).toBe('no parked keys');
  });
});
