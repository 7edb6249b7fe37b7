import { createDatabaseIfAbsent, migrate, withDatabase } from '@app/db';
import {
  AppProcess,
  cleanEnv,
  createTestDatabase,
  freePort,
  KafkaProxy,
  TcpProxy,
  TestDatabase,
  uniqueName,
  waitFor,
} from '@app/testing';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/** Waiting out a missing dependency takes a few of its checks: generous for a busy machine. */
const TIMEOUT_MS = 120_000;

describe('apps that start before what they need', () => {
  const started: AppProcess[] = [];
  const dropped: string[] = [];
  const admin = () =>
    new Client({
      connectionString: withDatabase(
        process.env.HOOKRAIL_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres',
        'postgres',
      ),
    });

  afterAll(async () => {
    started.forEach((child) => child.signal('SIGKILL'));
    await Promise.all(started.map((child) => child.exited));
    const client = admin();
    await client.connect();
    for (const name of dropped) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  });

  const readyz = async (port: number) => {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    return response && { status: response.status, body: (await response.json()) as Record<string, string> };
  };

  it(
    'consumers wait for Postgres, then for Kafka, saying which variable names each, and start once both answer',
    async () => {
      const database: TestDatabase = await createTestDatabase();
      const postgres = await TcpProxy.start('127.0.0.1:5432');
      const kafka = await KafkaProxy.start();
      await postgres.cut();
      await kafka.stop();
      const metricsPort = await freePort();
      const child = AppProcess.start(
        'consumers',
        cleanEnv({
          DATABASE_URL: database.url.replace('127.0.0.1:5432', postgres.address),
          KAFKA_BROKERS: kafka.address,
          CONSUMER_GROUPS: 'ledger',
          DEAD_LETTER_STORE: 'false',
          KAFKA_NAMESPACE: `${uniqueName('deps')}.`,
          METRICS_PORT: String(metricsPort),
        }),
      );
      started.push(child);
      try {
        await child.waitForLog(`waiting for Postgres at ${postgres.address}/${database.name} (DATABASE_URL)`);
        expect(await readyz(metricsPort)).toEqual({
          status: 503,
          body: { status: 'not_ready', waitingFor: `Postgres at ${postgres.address}/${database.name} (DATABASE_URL)` },
        });
        await postgres.resume();
        await child.waitForLog(`waiting for Kafka at ${kafka.address} (KAFKA_BROKERS)`);
        expect((await readyz(metricsPort))?.body.waitingFor).toBe(`Kafka at ${kafka.address} (KAFKA_BROKERS)`);
        await kafka.resume();
        await child.waitForLog('consumers started', 60_000);
        expect((await readyz(metricsPort))?.status).toBe(200);
        expect(child.child.exitCode).toBeNull();
      } finally {
        child.signal('SIGTERM');
        await child.exited;
        await kafka.stop();
        await postgres.cut();
        await database.drop();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'consumers and relay wait for an unmigrated database, naming npm run db:migrate, and start once it is migrated',
    async () => {
      const name = uniqueName('hookrail_unmigrated').replace(/-/g, '_');
      const url = withDatabase('postgres://postgres@127.0.0.1:5432/postgres', name);
      await createDatabaseIfAbsent(url);
      dropped.push(name);
      const consumers = AppProcess.start(
        'consumers',
        cleanEnv({
          DATABASE_URL: url,
          CONSUMER_GROUPS: 'ledger',
          DEAD_LETTER_STORE: 'false',
          KAFKA_NAMESPACE: `${uniqueName('unmigrated')}.`,
          METRICS_PORT: '0',
        }),
      );
      const relay = AppProcess.start('relay', cleanEnv({ DATABASE_URL: url, METRICS_PORT: '0' }));
      started.push(consumers, relay);
      for (const child of [consumers, relay]) {
        await waitFor(
          () =>
            child
              .logLines()
              .some(
                (line) =>
                  String(line.msg).startsWith('waiting for Postgres') && /npm run db:migrate/.test(String(line.err)),
              ),
          { what: 'a line naming npm run db:migrate', timeoutMs: 45_000 },
        );
      }
      await migrate(url);
      await consumers.waitForLog('consumers started', 60_000);
      await relay.waitForLog('relay started', 60_000);
      for (const child of [consumers, relay]) {
        child.signal('SIGTERM');
        expect(await child.exited).toEqual({ code: 0, signal: null });
      }
    },
    TIMEOUT_MS,
  );

  it(
    'the ingress on an unmigrated database says not ready with what to run, and answers 503 not_migrated, not 500',
    async () => {
      const name = uniqueName('hookrail_unmigrated').replace(/-/g, '_');
      const url = withDatabase('postgres://postgres@127.0.0.1:5432/postgres', name);
      await createDatabaseIfAbsent(url);
      dropped.push(name);
      const sources = path.join(os.tmpdir(), `hookrail-deps-sources-${process.pid}.json`);
      writeFileSync(
        sources,
        JSON.stringify([
          {
            name: 'shop',
            scheme: 'standard-webhooks',
            secrets: ['whsec_' + Buffer.from('s'.repeat(24)).toString('base64')],
            topic: 'shop.orders',
          },
        ]),
      );
      const port = await freePort();
      const ingress = AppProcess.start(
        'ingress',
        cleanEnv({
          DATABASE_URL: url,
          HOOKRAIL_SOURCES: sources,
          ADMIN_TOKEN: 'a'.repeat(32),
          PRODUCER_TOKENS: 'p'.repeat(32),
          PORT: String(port),
        }),
      );
      started.push(ingress);
      await ingress.waitForLog('ingress started');
      await waitFor(() => ingress.logLines().some((line) => /npm run db:migrate/.test(String(line.err))), {
        what: 'the start line naming npm run db:migrate',
      });
      const ready = await readyz(port);
      expect(ready?.status).toBe(503);
      expect(ready?.body.message).toMatch(/the database is not migrated \(missing .*\): run npm run db:migrate/);
      // A producer token is checked in memory: the read then reaches the unmigrated database.
      const accepted = await fetch(`http://127.0.0.1:${port}/events/00000000-0000-4000-8000-000000000000`, {
        headers: { authorization: `Bearer ${'p'.repeat(32)}` },
      });
      expect(accepted.status).toBe(503);
      expect(await accepted.json()).toMatchObject({ error: 'not_migrated' });
    },
    TIMEOUT_MS,
  );
});
