import { execFile } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const program = `
  const { createLogger } = require('./libs/logger/src/logger.ts');
  const logger = createLogger('demo', 'info', process.argv[1]);
  logger.info({ eventId: 'evt_1', authorization: 'Bearer abc' }, 'event applied');
`;

/** Runs the program under node (through `script` when `tty`, which gives it a terminal as stdout). */
function run(format: string, tty: boolean): Promise<string> {
  const node = [process.execPath, '-r', '@swc-node/register', '-e', program, format];
  const [file, args] = tty
    ? ['script', ['-qec', node.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' '), '/dev/null']]
    : [node[0], node.slice(1)];
  return new Promise((resolve, reject) =>
    execFile(
      file as string,
      args as string[],
      { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

describe('createLogger', () => {
  it('writes JSON lines when stdout is not a terminal', async () => {
    const line = JSON.parse((await run('auto', false)).trim());
    expect(line).toMatchObject({ level: 'info', app: 'demo', eventId: 'evt_1', msg: 'event applied' });
    expect(line.authorization).toBe('[redacted]');
  });

  it('writes one readable line on a terminal, secrets still redacted', async () => {
    const output = (await run('auto', true)).trim();
    expect(output).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z\] INFO: event applied \{.*"eventId":"evt_1"/m);
    expect(output).not.toContain('Bearer abc');
    expect(() => JSON.parse(output)).toThrow();
  });

  it('keeps JSON on a terminal when LOG_FORMAT=json', async () => {
    expect(JSON.parse((await run('json', true)).trim())).toMatchObject({ msg: 'event applied' });
  });
});
