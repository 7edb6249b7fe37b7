import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Stops the broker only when this test run started it. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.HOOKRAIL_TEST_STARTED_KAFKA !== '1') return;
  execFileSync('bash', [path.resolve(__dirname, '../../scripts/kafka/kafka.sh'), 'down'], { stdio: 'inherit' });
}
