import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HEAP_FLAG, startScriptNodeOptions } from '../../bench/lib/app-node-options';

/**
 * Each app's heap limits are written where it is started: its `start:<app>` script (npm start runs those), its
 * docker-compose command and, for the ingress, the image's default command. The benchmarks read the start script's
 * flags, so the three must say the same or the figures in docs/benchmarks.md would not be those of what users run.
 */
const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const APPS = ['ingress', 'relay', 'consumers'] as const;

function startScriptFlags(app: string): string[] {
  return startScriptNodeOptions(JSON.parse(read('package.json')).scripts[`start:${app}`]);
}

/** The quoted words of a `['node', …, '<entry>']` command that starts `entry` (on one line or spread over several). */
function commandFlags(text: string, entry: string): string[] {
  const end = text.indexOf(entry);
  const start = text.lastIndexOf('[', end);
  if (end < 0 || start < 0 || !text.slice(start, end).includes('node')) throw new Error(`no command starts ${entry}`);
  return [...text.slice(start, end).matchAll(/['"]([^'"]+)['"]/g)]
    .map((match) => match[1])
    .filter((word) => HEAP_FLAG.test(word));
}

describe('the apps’ heap limits', () => {
  it.each(APPS)('are the same for the %s in its start script and in docker-compose.yml', (app) => {
    const flags = startScriptFlags(app);
    expect(flags.map((flag) => flag.split('=')[0])).toEqual(
      expect.arrayContaining(['--max-old-space-size', '--max-semi-space-size']),
    );
    expect(commandFlags(read('docker-compose.yml'), `dist/apps/${app}/src/main.js`)).toEqual(flags);
  });

  it.each(APPS)('are flags this Node accepts for the %s (a V8 flag a release dropped would stop the app)', (app) => {
    const run = spawnSync(process.execPath, [...startScriptFlags(app), '-e', ''], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('are the ingress’s in the image’s default command', () => {
    expect(commandFlags(read('Dockerfile'), 'dist/apps/ingress/src/main.js')).toEqual(startScriptFlags('ingress'));
  });
});
