import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The README's commands run the compiled JavaScript the Docker image runs (dist/, built by scripts/run-built.js when
 * the sources changed), never TypeScript through a loader: figures measured on them are the product's.
 */
const root = path.resolve(__dirname, '../..');
const WATCHER = path.join(__dirname, 'fixtures/no-typescript.js');
const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
const README_COMMANDS = ['start', 'start:ingress', 'start:relay', 'start:consumers', 'db:migrate', 'db:check'];

/** Runs a command with the watcher preloaded; its exit code and what the watcher and the process wrote. */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env, NODE_OPTIONS: `--require ${WATCHER}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

const typescript = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('typescript-'));

describe('the README’s commands run compiled JavaScript', () => {
  beforeAll(() => {
    // Builds dist/ if the sources are newer (a fresh clone: the first start builds).
    require(path.join(root, 'scripts/run-built.js')).ensureBuilt('apps/ingress/src/main.ts');
  }, 240_000);

  it.each(README_COMMANDS)('%s goes through scripts/run-built.js, not a TypeScript loader', (name) => {
    expect(scripts[name]).toMatch(/^node (--\S+ )*scripts\/run-built\.js \S+\.ts$/);
    expect(scripts[name]).not.toContain('@swc-node/register');
  });

  it.each(['start:ingress', 'start:relay', 'start:consumers'])(
    '%s loads its whole app without a TypeScript file',
    async (name) => {
      // A configuration error stops the app at start, after main.js loaded every module of the app.
      const { code, stderr } = await run('npm', ['run', '--silent', name], { LOG_LEVEL: 'chatty' });
      expect(stderr).toContain('configuration error');
      expect(code).not.toBe(0);
      expect(typescript(stderr)).toEqual([]);
    },
  );

  it('the CLI answers from compiled JavaScript', async () => {
    const { code, stderr } = await run(process.execPath, [path.join(root, 'bin/hookrail'), '--help'], {});
    expect(code).toBe(0);
    expect(typescript(stderr)).toEqual([]);
  });
});
