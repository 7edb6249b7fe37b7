import { projectTopics } from '@app/contracts';
import { testKafka } from '@app/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

function topicsCreate(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'topics:create'],
      { cwd: root, env: process.env, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('npm run topics:create', () => {
  it('creates every project topic and is idempotent', async () => {
    const first = await topicsCreate();
    expect(first).toMatchObject({ code: 0, output: expect.stringMatching(/^topics:create: /) });

    const admin = testKafka().admin();
    await admin.connect();
    const existing = new Set(await admin.listTopics());
    await admin.disconnect();
    for (const topic of projectTopics()) expect(existing.has(topic)).toBe(true);

    const second = await topicsCreate();
    expect(second).toEqual({ code: 0, output: `topics:create: all ${projectTopics().length} topics already exist\n` });
  });
});
