import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { tcpReachable } from '../../scripts/lib/tcp-reachable';
const { buildIfStale } = require('../../scripts/run-built.js') as { buildIfStale: () => void };

const root = path.resolve(__dirname, '../..');

/** Makes sure the broker and the migrated template database exist before any test file runs. */
export default async function globalSetup(): Promise<void> {
  const brokers = process.env.KAFKA_BROKERS || '127.0.0.1:9092';
  process.env.KAFKA_BROKERS = brokers;
  // Each test makes topics under a namespace of its own: the consumers it starts create them (development mode).
  process.env.KAFKA_CREATE_TOPICS ||= 'true';
  if (!(await tcpReachable(brokers.split(',')[0]))) {
    execFileSync('bash', [path.join(root, 'scripts/kafka/kafka.sh'), 'up'], { stdio: 'inherit' });
    process.env.HOOKRAIL_TEST_STARTED_KAFKA = '1';
  }
  // The bins (hookrail, webhook:send, the apps) run the compiled tree: build it once here, so that no test's
  // first start pays for the build or finds its messages on stderr.
  buildIfStale();
  // Workers inherit this: their databases carry the run's id, so parallel runs on one server never collide.
  process.env.HOOKRAIL_TEST_RUN = String(process.pid);
  execFileSync(
    process.execPath,
    ['-r', '@swc-node/register', 'libs/testing/src/cli/test-databases.command.ts', 'prepare', String(process.pid)],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
