import { SHOP_ORDER_PAID_V1, TOPICS } from '@app/contracts';
import { connect } from '@app/db';
import { createKafka, ensureTopics, kafkaFromEnv } from '@app/kafka';
import { Client } from 'pg';
import { orderEvents, produceAll } from '../consumers/bench-orders';
import { insertBacklog } from '../relay/bench-events';
import { HopCounter, HopProcess, perMessage, sampleHops } from './hop-cost';

/** Messages in each bulk run. */
const BULK = Number(process.env.BENCH_BULK || 20_000);

type Cost = ReturnType<typeof perMessage>;
type Apps = Parameters<typeof sampleHops>[1];

async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not within 300 s`);
}

const count = async (db: Client, sql: string): Promise<number> => (await db.query(sql)).rows[0].n;

/**
 * The hops of the saga path at bulk: the relay draining BENCH_BULK outbox rows written beforehand (its topic no group
 * reads), then the ledger, a group that works by batch, applying BENCH_BULK events produced straight to its topic
 * (`shop.order.paid.v1`, which the saga's groups do not handle). Per message, the same processes as the saga phases.
 */
export async function bulkHops(
  db: Client,
  url: string,
  namespace: string,
  brokers: string[],
  apps: Apps,
): Promise<{ relay: Cost; ledger: Cost }> {
  const kafka = createKafka('hookrail-bench-saga-bulk', { ...kafkaFromEnv(), KAFKA_BROKERS: brokers });
  const topic = `${namespace}bench.bulk`;
  await ensureTopics(kafka, [{ topic, numPartitions: 6 }]);
  const seed = await connect({ url, applicationName: 'bench-saga-bulk', poolSize: 1 });
  await insertBacklog(seed, topic, BULK).finally(() => seed.destroy());
  const drainFrom = await sampleHops(db, apps);
  await until(
    'the relay draining the bulk backlog',
    async () => (await count(db, `SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`)) === 0,
  );
  const relay = perMessage(drainFrom, await sampleHops(db, apps), BULK);

  const applied = `SELECT count(*)::int AS n FROM processed_events WHERE "group" = 'ledger'`;
  const ledgerBefore = await count(db, applied);
  const events = orderEvents(BULK * 3).filter((event) => event.type === SHOP_ORDER_PAID_V1);
  const applyFrom = await sampleHops(db, apps);
  await produceAll(kafka, `${namespace}${TOPICS.shopOrders}`, events);
  await until('the ledger applying the bulk events', async () => (await count(db, applied)) >= ledgerBefore + BULK);
  const ledger = perMessage(applyFrom, await sampleHops(db, apps), BULK);
  return { relay, ledger };
}

const PROCESS_ROWS: Array<{
  name: HopProcess;
  bulk: (bulk: { relay: Cost; ledger: Cost }, counter: HopCounter) => number;
  as: string;
}> = [
  { name: 'relay', bulk: (b, c) => b.relay[c].relay, as: 'the drain' },
  { name: 'consumers', bulk: (b, c) => b.ledger[c].consumers, as: 'the ledger' },
  { name: 'postgres', bulk: (b, c) => b.relay[c].postgres + b.ledger[c].postgres, as: 'drain + ledger' },
  { name: 'broker', bulk: (b, c) => b.relay[c].broker + b.ledger[c].broker, as: 'drain + ledger' },
];

/**
 * The hop-cost table: CPU and wake-ups (voluntary context switches) per message of each process on the saga path and
 * in bulk, and their ratio.
 */
export function hopCostTable(
  phases: Array<{ name: string; from: number; to: number; cost: Cost }>,
  bulk: { relay: Cost; ledger: Cost },
): string[] {
  const ms = (value: number) => value.toFixed(3);
  const lines = [
    `| CPU ms per message | ${phases.map((phase) => `saga, ${phase.name}`).join(' | ')} | bulk (${BULK} messages) | ${phases.map((phase) => `ratio, ${phase.name}`).join(' | ')} |`,
    `|---|${phases.map(() => '---|').join('')}---|${phases.map(() => '---|').join('')}`,
  ];
  for (const [counter, label, digits] of [
    ['cpuMs', '', 3],
    ['wakeUps', ', wake-ups per message', 2],
  ] as const)
    for (const row of PROCESS_ROWS) {
      const floor = row.bulk(bulk, counter);
      lines.push(
        `| ${row.name}${label} | ${phases.map((phase) => phase.cost[counter][row.name].toFixed(digits)).join(' | ')} | ${floor.toFixed(3)} (${row.as}) | ${phases.map((phase) => (phase.cost[counter][row.name] / floor).toFixed(1)).join(' | ')} |`,
      );
    }
  const transactions = bulk.relay.transactions + bulk.ledger.transactions;
  lines.push(
    `| Postgres transactions per message | ${phases.map((phase) => phase.cost.transactions.toFixed(2)).join(' | ')} | ${transactions.toFixed(3)} (drain + ledger) | ${phases.map((phase) => (phase.cost.transactions / transactions).toFixed(1)).join(' | ')} |`,
    `| relay, write system calls per message | ${phases.map((phase) => phase.cost.writes.relay.toFixed(2)).join(' | ')} | ${bulk.relay.writes.relay.toFixed(3)} (the drain) | ${phases.map((phase) => (phase.cost.writes.relay / bulk.relay.writes.relay).toFixed(1)).join(' | ')} |`,
    `| consumers, write system calls per message | ${phases.map((phase) => phase.cost.writes.consumers.toFixed(2)).join(' | ')} | ${bulk.ledger.writes.consumers.toFixed(3)} (the ledger) | ${phases.map((phase) => (phase.cost.writes.consumers / bulk.ledger.writes.consumers).toFixed(1)).join(' | ')} |`,
    `| ingress, write system calls per order | ${phases.map((phase) => ((phase.cost.writes.ingress * phase.cost.messages) / (phase.to - phase.from)).toFixed(1)).join(' | ')} | | |`,
    `| ingress, CPU ms per order | ${phases.map((phase) => ms((phase.cost.cpuMs.ingress * phase.cost.messages) / (phase.to - phase.from))).join(' | ')} | | |`,
    `| messages per order (outbox rows) | ${phases.map((phase) => (phase.cost.messages / (phase.to - phase.from)).toFixed(1)).join(' | ')} | | |`,
  );
  return lines;
}
