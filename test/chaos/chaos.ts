// npm run chaos — the whole system on a 3-broker Kafka cluster while its parts are killed, cut off and stalled on a
// seeded schedule; then the invariants, as a table. CHAOS_SEED replays a run, CHAOS_SECONDS sets its length.
import 'reflect-metadata';
import { TOPICS, projectTopics } from '@app/contracts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { readChaosConfig } from './chaos-config';
import { crashRow, invariantTable, runSummary } from './chaos-report';
import {
  ChaosSystem,
  dropDatabase,
  PARTITIONS,
  startInfrastructure,
  startSystem,
  stopSystem,
  STALL_MS,
} from './chaos-system';
import { FaultRunner } from './fault-runner';
import { describeFault, planFaults } from './fault-schedule';
import { CheckContext, consumerGroupNames, countRow, InvariantRow } from './groups/chaos-group';
import { CHAOS_GROUPS } from './groups';
import {
  acceptedEvents,
  ANSWER_TIMEOUT_S,
  drainWaits,
  groupContext,
  groupInvariants,
  ingressInvariants,
} from './invariants';
import { OrderFactory } from './order-events';
import { Random } from './random';
import { WebhookSender } from './webhook-sender';

const root = path.resolve(__dirname, '../..');
const log = (line: string) => console.log(line);

async function main(): Promise<boolean> {
  const began = Date.now();
  const config = readChaosConfig();
  const replay = `CHAOS_SEED=${config.seed} CHAOS_SECONDS=${config.seconds} CHAOS_RATE=${config.rate} npm run chaos`;
  log(`chaos: seed ${config.seed}, ${config.seconds} s at ${config.rate} events/s (replay: ${replay})`);
  const random = new Random(config.seed);
  const plan = planFaults(random.fork(), {
    seconds: config.seconds,
    killTargets: ['relay-1', 'relay-2', 'relay-3', 'consumers-1', 'consumers-2'],
    stallTargets: ['consumers-1', 'consumers-2'],
    partitions: PARTITIONS,
    stallMs: STALL_MS,
    outageMs: 10_000,
  });
  log(['chaos: the plan', ...plan.map((fault) => `  ${describeFault(fault)}`)].join('\n'));
  if (config.build) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });

  const runDir = mkdtempSync(path.join(os.tmpdir(), `hookrail-chaos-${config.seed}-`));
  const system: Partial<ChaosSystem> = {};
  let passed = false;
  // Ctrl-C: the brokers run in sessions of their own and would outlive the run; stop everything first.
  const interrupted = () => {
    log('chaos: interrupted; stopping everything it started');
    void stopSystem(system, log).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    Object.assign(system, await startInfrastructure(runDir, config.postgresUrl, log));
    Object.assign(system, await startSystem(system as ChaosSystem, CHAOS_GROUPS, runDir));
    passed = await exercise(system as ChaosSystem, config, random, plan, replay);
  } finally {
    await stopSystem(system, log);
    log(`chaos: ${passed ? 'passed' : 'failed'} after ${Math.round((Date.now() - began) / 1000)} s in all`);
    if (passed) {
      if (system.databaseName) await dropDatabase(config.postgresUrl, system.databaseName);
      rmSync(runDir, { recursive: true, force: true });
    } else {
      log(`chaos: kept for a look: logs and broker data in ${runDir}, database ${system.databaseName ?? '(none)'}`);
      log(`chaos: replay with ${replay}`);
    }
  }
  return passed;
}

/** Waits until nothing is left to publish or apply, or the deadline; returns what was still awaited. */
async function drain(db: Client, contexts: Map<string, CheckContext>, deadline: number): Promise<string[]> {
  let waits = await drainWaits(db, [...CHAOS_GROUPS], contexts);
  let lastShown = Date.now();
  while (waits.length > 0 && Date.now() < deadline) {
    if (Date.now() - lastShown > 10_000) {
      log(`chaos: waiting for ${waits.join('; ')}`);
      lastShown = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    waits = await drainWaits(db, [...CHAOS_GROUPS], contexts);
  }
  return waits;
}

async function exercise(
  system: ChaosSystem,
  config: ReturnType<typeof readChaosConfig>,
  random: Random,
  plan: ReturnType<typeof planFaults>,
  replay: string,
): Promise<boolean> {
  const db = new Client({ connectionString: system.databaseUrl });
  await db.connect();
  try {
    const orders = new OrderFactory(
      random.fork(),
      CHAOS_GROUPS.flatMap((group) => (group.poison ? [{ group: group.group, apply: group.poison.apply }] : [])),
    );
    const sender = new WebhookSender(random.fork(), orders, {
      ingressPorts: system.ingressPorts,
      secret: system.secret,
      ratePerSecond: config.rate,
      duplicateShare: 0.2,
      poisonShare: 0.01,
      activeOrders: Math.max(20, config.rate),
      requestTimeoutMs: ANSWER_TIMEOUT_S * 1000,
    });
    const faults = new FaultRunner(
      {
        processes: system.processes,
        cluster: system.cluster,
        postgres: system.postgres,
        consumerLinks: system.consumerLinks,
        ordersTopic: TOPICS.shopOrders,
        replicatedTopics: projectTopics(),
        groups: consumerGroupNames(CHAOS_GROUPS),
      },
      log,
    );
    for (const group of CHAOS_GROUPS)
      await group.prepare?.({
        db,
        providerUrls: system.providerUrls,
        ingressUrls: system.ingressPorts.map((port) => `http://127.0.0.1:${port}`),
        adminUrl: `http://127.0.0.1:${system.adminPort}`,
        adminToken: system.adminToken,
      });
    log(`chaos: traffic and faults for ${config.seconds} s`);
    const startedAt = Date.now();
    const [trafficEnd] = await Promise.all([
      sender.offer(config.seconds),
      faults.run(plan, startedAt, startedAt + config.seconds * 1000),
    ]);
    const deadline = Date.now() + config.drainSeconds * 1000;
    log(
      `chaos: traffic and faults over after ${((Date.now() - startedAt) / 1000).toFixed(1)} s; ` +
        `${sender.unanswered()} events still to be answered 2xx; draining`,
    );
    await sender.finish(deadline);
    sender.stop();

    const accepted = acceptedEvents({ ...sender, outages: [] });
    const contexts = new Map<string, CheckContext>(
      CHAOS_GROUPS.map((group) => [group.group, groupContext(db, group, accepted, system.providerUrls)]),
    );
    const waits = await drain(db, contexts, deadline);
    const drainedAt = waits.length === 0 ? Date.now() : undefined;
    const lastFaultEnd = Math.max(faults.lastRestored(), trafficEnd);

    const outages = faults.log
      .filter((record) => record.kind === 'postgres-outage')
      .map(({ startedAt: from, endedAt }) => ({ startedAt: from, endedAt }));
    const rows: InvariantRow[] = [
      {
        invariant: 'drained: outbox empty, every group caught up',
        expected: `within ${config.drainSeconds} s`,
        observed: drainedAt ? `in ${((drainedAt - lastFaultEnd) / 1000).toFixed(1)} s` : waits.join('; '),
        ok: drainedAt !== undefined,
      },
      countRow('topics replicated on the 3 brokers', 3, await system.cluster.replicationFactor(TOPICS.shopOrders)),
      ...(await ingressInvariants(db, { ...sender, outages })),
    ];
    for (const group of CHAOS_GROUPS) {
      const ctx = contexts.get(group.group)!;
      rows.push(...(await groupInvariants(group, ctx)), ...(await group.check(ctx)));
    }
    const exits = [...system.processes.values()].flatMap((process_) => process_.exits);
    rows.push(crashRow(exits));

    log(`\n${invariantTable(rows)}\n`);
    log(
      runSummary({
        seed: config.seed,
        replay,
        startedAt,
        trafficEnd,
        lastFaultEnd,
        drainedAt,
        offered: sender.offered.size,
        deliveries: sender.deliveries,
        accepted,
        faults: faults.log,
        exits,
      }),
    );
    const passed = rows.every((row) => row.ok);
    log(`\nchaos: ${passed ? 'PASSED' : 'FAILED'} (seed ${config.seed})`);
    return passed;
  } finally {
    await db.end();
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: Error) => {
    console.error(`chaos: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
