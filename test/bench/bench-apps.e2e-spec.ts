import { waitFor } from '@app/testing';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** Whether `pid` runs: neither gone nor a zombie (a killed orphan is reaped by whatever init the box has, if any). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] !== 'Z';
  } catch {
    return false;
  }
}

describe('a benchmark that crashes', () => {
  it('leaves none of the apps it started running', async () => {
    // A benchmark in miniature: starts an app that would run for ever, then fails.
    const script = `
      const { spawnBuilt } = require('./bench/lib/ingress-fixtures');
      const app = spawnBuilt('app', {}, ['-e', 'setInterval(() => undefined, 1000)']);
      console.log(app.pid);
      setTimeout(() => { throw new Error('the benchmark failed'); }, 300);
    `;
    const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 15_000,
    });
    const pid = Number(run.stdout.trim());
    try {
      expect(run.stderr).toContain('the benchmark failed');
      expect(pid).toBeGreaterThan(0);
      await waitFor(() => !alive(pid), { what: 'the app gone with its benchmark', timeoutMs: 5_000 });
    } finally {
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
