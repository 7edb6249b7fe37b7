import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.resolve(__dirname, '../../deploy/prometheus');

function promtool(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile('promtool', args, { cwd: dir }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    ),
  );
}

describe('the shipped Prometheus configuration and alert rules', () => {
  it('are valid for promtool', async () => {
    const [config, rules] = await Promise.all([
      promtool('check', 'config', 'prometheus.yml'),
      promtool('check', 'rules', 'alerts.yml'),
    ]);
    expect(config).toMatchObject({ code: 0, output: expect.stringContaining('SUCCESS') });
    expect(rules).toMatchObject({ code: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('pass their promtool unit tests', async () => {
    const result = await promtool('test', 'rules', 'alerts.test.yml');
    expect(result.output).toContain('SUCCESS');
    expect(result.code).toBe(0);
  });

  it('have, for every rule, a unit test in which it fires and one in which it does not', () => {
    const rules = [...readFileSync(path.join(dir, 'alerts.yml'), 'utf8').matchAll(/- alert: (\w+)/g)].map((m) => m[1]);
    const tests = readFileSync(path.join(dir, 'alerts.test.yml'), 'utf8');
    const cases = [...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts:( \[\])?/g)].map((m) => ({
      alert: m[1],
      fires: m[2] === undefined,
    }));
    expect(rules.length).toBeGreaterThan(10);
    for (const alert of rules) {
      expect({ alert, fires: cases.some((c) => c.alert === alert && c.fires) }).toEqual({ alert, fires: true });
    }
    const silent = rules.filter((alert) => !cases.some((c) => c.alert === alert && !c.fires));
    expect(silent).toEqual([]);
  });
});
