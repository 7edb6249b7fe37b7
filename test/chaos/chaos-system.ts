import { projectTopics, TOPICS } from '@app/contracts';
import { createDatabaseIfAbsent, migrate, withDatabase } from '@app/db';
import { createKafka, ensureTopics, plaintextKafka } from '@app/kafka';
import { freePort, LocalKafkaCluster } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { AppName, appNodeOptions } from '../../bench/lib/app-node-options';
import { ManagedProcess, waitReady } from './chaos-processes';
import { ChaosGroup, consumerGroupNames } from './groups/chaos-group';
import { ProxyHost, RemoteProxy } from './remote-proxies';

export const PARTITIONS = 6;
/** The consumers' session timeout; the stall lasts longer, so that the group rebalances. */
export const SESSION_TIMEOUT_MS = 10_000;
export const STALL_MS = SESSION_TIMEOUT_MS + 6_000;

/** Everything a run starts: the cluster, the database, the proxies, the providers and the apps. */
export interface ChaosSystem {
  cluster: LocalKafkaCluster;
  databaseName: string;
  databaseUrl: string;
  proxies: ProxyHost;
  postgres: RemoteProxy;
  consumerLinks: Map<string, RemoteProxy>;
  providerUrls: Record<string, string>;
  ingressPorts: number[];
  adminPort: number;
  adminToken: string;
  secret: string;
  providers: ManagedProcess[];
  apps: ManagedProcess[];
  /** Every process by name (`ingress-1`, `relay-2`, `consumers-1`, `email-provider`…). */
  processes: Map<string, ManagedProcess>;
}

/** The 3-broker cluster, the migrated database and the project's topics (replicated on all three brokers). */
export async function startInfrastructure(
  runDir: string,
  postgresUrl: string,
  log: (line: string) => void,
): Promise<{ cluster: LocalKafkaCluster; databaseName: string; databaseUrl: string }> {
  log('chaos: starting a 3-broker Kafka cluster');
  const cluster = await LocalKafkaCluster.start(3, path.join(runDir, 'kafka'));
  log(`chaos: cluster up on ${cluster.brokers.join(', ')}`);
  const databaseName = `hookrail_chaos_${Date.now().toString(36)}`;
  const databaseUrl = withDatabase(postgresUrl, databaseName);
  await createDatabaseIfAbsent(databaseUrl);
  await migrate(databaseUrl);
  await ensureTopics(
    createKafka('hookrail-chaos', plaintextKafka(cluster.brokers)),
    projectTopics().map((topic) => ({ topic, numPartitions: PARTITIONS })),
  );
  log(`chaos: database ${databaseName}, topics ${projectTopics().join(', ')}`);
  return { cluster, databaseName, databaseUrl };
}

/**
 * The development providers and the apps: ingress ×2 and relay ×3 straight on the cluster, consumers ×2 each behind
 * a Kafka proxy of its own (the stall), every app's Postgres behind one proxy (the outage). Logs in `runDir/logs`.
 */
export async function startSystem(
  infrastructure: { cluster: LocalKafkaCluster; databaseName: string; databaseUrl: string },
  groups: readonly ChaosGroup[],
  runDir: string,
): Promise<ChaosSystem> {
  const { cluster, databaseUrl } = infrastructure;
  const logs = path.join(runDir, 'logs');
  mkdirSync(logs, { recursive: true });
  const processes = new Map<string, ManagedProcess>();
  const managed = (name: string, entry: string, env: Record<string, string>, readyLine: string, app?: AppName) => {
    const process_ = new ManagedProcess(
      name,
      entry,
      { ...cleanEnv(), ...env },
      path.join(logs, `${name}.log`),
      readyLine,
      // The apps run with the heap limits of their start scripts: a limit too tight for every group at once under
      // faults shows as a process that died on its own.
      app ? appNodeOptions(app) : [],
    );
    processes.set(name, process_);
    return process_;
  };

  const providerUrls: Record<string, string> = {};
  const providers: ManagedProcess[] = [];
  for (const provider of groups.flatMap((group) => group.providers)) {
    const port = await freePort();
    providerUrls[provider.name] = `http://127.0.0.1:${port}`;
    providers.push(managed(provider.name, provider.entry, provider.env(port), provider.readyLine));
  }
  providers.forEach((provider) => provider.start());
  await waitReady(providers, 60_000);

  const proxies = await ProxyHost.start();
  const postgres = await proxies.tcp(new URL(databaseUrl).host);
  const proxiedUrl = Object.assign(new URL(databaseUrl), { host: postgres.address }).toString();
  const common = { DATABASE_URL: proxiedUrl, LOG_LEVEL: 'info', METRICS_PORT: '0' };
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const sources = path.join(runDir, 'sources.json');
  writeFileSync(
    sources,
    JSON.stringify([
      {
        name: 'shop',
        scheme: 'standard-webhooks',
        secrets: [secret],
        topic: TOPICS.shopOrders,
        typePath: 'type',
        aggregateIdPath: 'data.orderId',
      },
    ]),
  );
  const ingressPorts = [await freePort(), await freePort()];
  const adminToken = randomBytes(16).toString('hex');
  const adminEnv = Object.assign({}, ...groups.map((group) => group.adminEnv?.(providerUrls) ?? {})) as Record<
    string,
    string
  >;
  const apps: ManagedProcess[] = ingressPorts.map((port, index) =>
    managed(
      `ingress-${index + 1}`,
      'apps/ingress/src/main.js',
      {
        ...common,
        KAFKA_BROKERS: cluster.brokers.join(','),
        PORT: String(port),
        HOOKRAIL_SOURCES: sources,
      },
      'ingress started',
      'ingress',
    ),
  );
  // The operator plane, where the run's set-up creates its outbound endpoints; no fault aims at it.
  const adminPort = await freePort();
  apps.push(
    managed(
      'admin',
      'apps/admin/src/main.js',
      {
        ...common,
        ...adminEnv,
        KAFKA_BROKERS: cluster.brokers.join(','),
        ADMIN_PORT: String(adminPort),
        PORTAL_PORT: '0',
        ADMIN_TOKEN: adminToken,
        HOOKRAIL_SOURCES: sources,
      },
      'admin started',
      'admin',
    ),
  );
  for (let index = 1; index <= 3; index++)
    apps.push(
      managed(
        `relay-${index}`,
        'apps/relay/src/main.js',
        { ...common, KAFKA_BROKERS: cluster.brokers.join(',') },
        'relay started',
        'relay',
      ),
    );
  const consumerLinks = new Map<string, RemoteProxy>();
  const groupEnv = Object.assign({}, ...groups.map((group) => group.consumerEnv(providerUrls))) as Record<
    string,
    string
  >;
  for (let index = 1; index <= 2; index++) {
    const name = `consumers-${index}`;
    const link = await proxies.kafka(cluster.brokers);
    consumerLinks.set(name, link);
    apps.push(
      managed(
        name,
        'apps/consumers/src/main.js',
        {
          ...common,
          ...groupEnv,
          KAFKA_BROKERS: link.address,
          CONSUMER_GROUPS: consumerGroupNames(groups).join(','),
          TOPIC_PARTITIONS: String(PARTITIONS),
          KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
        },
        'consumers started',
        'consumers',
      ),
    );
  }
  apps.forEach((app) => app.start());
  await waitReady(apps, 120_000);
  return {
    ...infrastructure,
    proxies,
    postgres,
    consumerLinks,
    providerUrls,
    ingressPorts,
    adminPort,
    adminToken,
    secret,
    providers,
    apps,
    processes,
  };
}

/** Stops every process (SIGTERM, then SIGKILL), the proxies and the cluster; drops the database when asked. */
export async function stopSystem(system: Partial<ChaosSystem>, log: (line: string) => void): Promise<void> {
  await Promise.all([...(system.apps ?? []), ...(system.providers ?? [])].map((process_) => process_.stop(5000)));
  await system.proxies?.stop();
  if (system.cluster) log(await system.cluster.down().catch((error: Error) => error.message));
}

export async function dropDatabase(postgresUrl: string, name: string): Promise<void> {
  const admin = new Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The run's environment without anything that would change an app's configuration by accident. */
function cleanEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'NODE_OPTIONS'];
  return Object.fromEntries(
    keep.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]),
  );
}
