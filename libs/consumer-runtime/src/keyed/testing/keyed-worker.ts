// A consumer group applying records concurrently by key in a process of its own, for the crash test: handlers that
// take 5–40 ms each, so the in-flight window is full when HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS kills the process
// (SIGKILL) right after that many commit transactions, before their offsets are committed.
import 'reflect-metadata';
import { SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { connect } from '@app/db';
import { createKafka, kafkaFromEnv } from '@app/kafka';
import { createLogger } from '@app/logger';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConsumerMetrics, ConsumerRuntime } from '../..';
import { writeKeyedEffect } from './keyed-effects';

async function main(): Promise<void> {
  const env = (name: string) => process.env[name] ?? '';
  const logger = createLogger('keyed-worker', 'warn');
  const dataSource = await connect({ url: env('DATABASE_URL'), applicationName: 'keyed-worker', poolSize: 6 });
  const killAfter = Number(env('HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS') || 0);
  let commits = 0;
  const runtime = new ConsumerRuntime({
    group: env('GROUP'),
    topics: [env('TOPIC')],
    dltTopic: env('DLT_TOPIC'),
    replayTopic: env('REPLAY_TOPIC'),
    handlers: [
      {
        type: SHOP_ORDER_PLACED_V1,
        handler: async (event, ctx) => {
          await sleep(5 + Math.floor(Math.random() * 35));
          writeKeyedEffect(event, ctx);
        },
      },
    ],
    kafka: createKafka('keyed-worker', kafkaFromEnv()),
    dataSource,
    logger,
    metrics: new ConsumerMetrics(),
    concurrency: 'key',
    // The broker's smallest: the survivor takes the killed member's partitions in seconds.
    sessionTimeoutMs: 6_000,
    keyed: { perPartition: 16, maxInFlight: 48, windowSize: 500 },
    afterDbCommit: () => {
      if (killAfter > 0 && ++commits >= killAfter) process.kill(process.pid, 'SIGKILL');
    },
  });
  await runtime.start();
  console.log(JSON.stringify({ msg: 'keyed worker running' }));
  process.once('SIGTERM', () => void runtime.stop().then(() => process.exit(0)));
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
