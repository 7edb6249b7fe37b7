import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** Drops this run's databases; stops the broker only when this run started it. */
export default async function globalTeardown(): Promise<void> {
  execFileSync(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      'libs/testing/src/cli/test-databases.command.ts',
      'drop',
      String(process.env.HOOKRAIL_TEST_RUN),
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (process.env.HOOKRAIL_TEST_STARTED_KAFKA === '1') {
    execFileSync('bash', [path.join(root, 'scripts/kafka/kafka.sh'), 'down'], { stdio: 'inherit' });
  }
}
