import {
  AppProcess,
  cleanEnv,
  freePort,
  SecureKafka,
  SecurePostgres,
  TestDatabase,
  uniqueName,
  waitFor,
} from '@app/testing';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { orderData, post } from '../ingress/ingress-harness';
import { standardHeaders } from '../ingress/signing';
import { bearer } from '../ingress/status-tokens';

const bin = path.resolve(__dirname, '../../bin/hookrail');

/**
 * The whole path on the secured broker and database: TLS, SCRAM and PLAIN logins, a client certificate, and each
 * program as its own principal with only the ACLs `npm run kafka:acls` grants it; topics made beforehand by
 * `topics:create` as the administrator; Postgres reached over verified TLS with a password, as a role that is no
 * superuser. Then each way a Kafka connection is refused gives its one line (test/secure/secure-postgres for Postgres).
 */
describe('hookrail on a secured Kafka (SASL_SSL, SCRAM, ACLs per program) and Postgres (verified TLS)', () => {
  let kafka: SecureKafka;
  let database: TestDatabase;
  let db: Client;
  let namespace: string;
  let dir: string;
  const started: AppProcess[] = [];
  const secret = `whsec_${randomBytes(24).toString('base64')}`;

  const start = (app: 'ingress' | 'admin' | 'relay' | 'consumers', env: Record<string, string>) => {
    const child = AppProcess.start(app, cleanEnv({ KAFKA_CREATE_TOPICS: 'false', ...env }));
    started.push(child);
    return child;
  };

  /** `hookrail` as a process, as the CLI's principal. */
  const hookrail = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        bin,
        args,
        {
          env: { ...process.env, ...kafka.env('hookrail-cli'), DATABASE_URL: database.url, KAFKA_NAMESPACE: namespace },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  beforeAll(async () => {
    kafka = SecureKafka.start();
    namespace = `${uniqueName('secure')}.`;
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-secure-'));
    database = await SecurePostgres.start().createDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
    // The administrator makes the topics and grants each program its ACLs; no app may create a topic.
    const [created, granted] = [
      await kafka.asAdmin('libs/kafka/src/cli/topics-create.command.ts', namespace),
      await kafka.asAdmin('libs/kafka/src/cli/kafka-acls.command.ts', namespace, ['--apply']),
    ];
    expect(created).toContain('topics:create: created');
    expect(granted).toMatch(/kafka:acls: \d+ ACLs for User:hookrail-admin/);
  }, 180_000);

  afterAll(async () => {
    for (const child of started) child.signal('SIGKILL');
    await Promise.all(started.map((child) => child.exited));
    await db?.end();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('takes a signed webhook through the ingress, the relay and two groups, dead-letters and replays, each program as its own principal', async () => {
    const sources = path.join(dir, 'sources.json');
    const secretFile = path.join(dir, 'sasl-password');
    writeFileSync(secretFile, `${kafka.password('hookrail-consumers')}\n`);
    writeFileSync(
      sources,
      JSON.stringify([
        {
          name: 'shop',
          scheme: 'standard-webhooks',
          secrets: [secret],
          topic: `${namespace}shop.orders`,
          aggregateIdPath: 'data.orderId',
        },
      ]),
    );
    const port = await freePort();
    // The ingress never reaches Kafka; the operator plane does, as its own principal, logging in with PLAIN.
    const ingress = start('ingress', {
      DATABASE_URL: database.url,
      HOOKRAIL_SOURCES: sources,
      KAFKA_NAMESPACE: namespace,
      PORT: String(port),
    });
    const adminPort = await freePort();
    const admin = start('admin', {
      ...kafka.env('hookrail-admin', { KAFKA_SASL_MECHANISM: 'plain' }),
      DATABASE_URL: database.url,
      ADMIN_TOKEN: 'a'.repeat(32),
      KAFKA_NAMESPACE: namespace,
      ADMIN_PORT: String(adminPort),
      PORTAL_PORT: '0',
      OPS_SAMPLE_INTERVAL_MS: '0',
    });
    // The relay presents its client certificate too, and logs in with SCRAM-SHA-256.
    const relay = start('relay', {
      ...kafka.env('hookrail-relay', { KAFKA_SASL_MECHANISM: 'scram-sha-256' }),
      ...kafka.clientCertificate('hookrail-relay'),
      DATABASE_URL: database.url,
      METRICS_PORT: '0',
      RELAY_POLL_INTERVAL_MS: '200',
    });
    // The consumers' password comes from a file; the ledger keeps euros only, so an order in dollars is dead-lettered.
    const { KAFKA_SASL_PASSWORD: _inline, ...consumersKafka } = kafka.env('hookrail-consumers');
    const consumers = start('consumers', {
      ...consumersKafka,
      KAFKA_SASL_PASSWORD_FILE: secretFile,
      DATABASE_URL: database.url,
      CONSUMER_GROUPS: 'ledger,analytics',
      KAFKA_NAMESPACE: namespace,
      LEDGER_CURRENCIES: 'EUR',
      METRICS_PORT: '0',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    await Promise.all([
      ingress.waitForLog('ingress started', 90_000),
      admin.waitForLog('admin started', 90_000),
      relay.waitForLog('relay started', 90_000),
      consumers.waitForLog('consumers started', 120_000),
    ]);

    const send = async (orderId: string, currency: string) => {
      const body = JSON.stringify({ type: 'shop.order.placed.v1', data: { ...orderData(orderId), currency } });
      const answer = await post(
        `http://127.0.0.1:${port}/webhooks/shop`,
        body,
        standardHeaders(secret, `msg_${randomBytes(8).toString('hex')}`, body),
      );
      expect(answer.status).toBe(202);
      return String(answer.body.id);
    };
    const applied = await send('ord_secure_1', 'EUR');
    // A viewer token, made as an operator makes one, reads the event's status.
    const viewer = bearer(
      JSON.parse((await hookrail('tokens', 'create', 'secure-viewer', '--role', 'viewer', '--json')).stdout).token,
    );
    const poison = await send('ord_secure_2', 'USD');

    await waitFor(
      async () => {
        const status = (await (
          await fetch(`http://127.0.0.1:${port}/events/${applied}`, { headers: viewer })
        ).json()) as {
          groups?: Array<{ status: string }>;
        };
        const processed = (status.groups ?? []).filter((group) => group.status === 'processed');
        return processed.length === 2 ? processed : undefined;
      },
      { what: 'the event processed by ledger and analytics', timeoutMs: 60_000 },
    );
    const deadLetter = await waitFor(
      async () =>
        (
          await db.query(`SELECT id, replay_count FROM dead_letters WHERE event_id = $1 AND "group" = 'ledger'`, [
            poison,
          ])
        ).rows[0],
      { what: 'the dead letter of the order in dollars', timeoutMs: 60_000 },
    );

    // The CLI, as its own principal: lag from Kafka, dead letters from Postgres, and a replay through Kafka (no fix:
    // the event comes back to the dead-letter queue with its replay count raised).
    // The operator plane reads the groups' lag from Kafka as hookrail-admin.
    const adminLag = await fetch(`http://127.0.0.1:${adminPort}/admin/lag`, {
      headers: { authorization: `Bearer ${'a'.repeat(32)}` },
    });
    expect(adminLag.status).toBe(200);
    expect(await adminLag.text()).toContain('ledger');
    const lag = await hookrail('lag', '--json');
    expect(lag).toMatchObject({ code: 0 });
    expect(lag.stdout).toContain('ledger');
    const list = await hookrail('dlq', 'list', '--group', 'ledger');
    expect(list).toMatchObject({ code: 0 });
    expect(list.stdout).toContain(deadLetter.id);
    const replay = await hookrail('dlq', 'replay', deadLetter.id);
    expect(replay.stdout).toContain('replayed 1 of 1');
    await waitFor(
      async () =>
        (
          await db.query(`SELECT 1 FROM dead_letters WHERE id = $1 AND replay_count = 1 AND status = 'dead'`, [
            deadLetter.id,
          ])
        ).rowCount === 1,
      { what: 'the replayed dead letter back in the queue with replay count 1', timeoutMs: 60_000 },
    );
    // Every connection the programs hold to the database is TLS: the pools, the relay's LISTEN lane session.
    const sessions = await db.query<{ application_name: string; ssl: boolean }>(
      `SELECT a.application_name, s.ssl FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid)
        WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()`,
    );
    expect(sessions.rows.map((row) => row.application_name)).toEqual(
      expect.arrayContaining(['hookrail-ingress', 'hookrail-admin', 'hookrail-relay', 'hookrail-consumers']),
    );
    expect(sessions.rows.filter((row) => !row.ssl)).toEqual([]);
    // No program logged a password.
    const output = started.map((child) => child.stdout + child.stderr).join('\n');
    for (const principal of ['hookrail-admin', 'hookrail-relay', 'hookrail-consumers'])
      expect(output).not.toContain(kafka.password(principal));
    expect(output).not.toContain(new URL(database.url).password);
  }, 300_000);

  /** Starts the relay (or consumers) with `env` and resolves with its exit and its output. */
  const refusal = async (app: 'relay' | 'consumers', env: Record<string, string>) => {
    const child = start(app, { DATABASE_URL: database.url, METRICS_PORT: '0', KAFKA_NAMESPACE: namespace, ...env });
    const exit = await Promise.race([
      child.exited,
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000).unref()),
    ]);
    return { exit, output: `${child.stdout}${child.stderr}` };
  };

  it('stops with one line for a wrong password, an untrusted CA, a missing ACL and a missing topic', async () => {
    const wrongPassword = await refusal(
      'relay',
      kafka.env('hookrail-relay', { KAFKA_SASL_PASSWORD: 'not-the-password' }),
    );
    expect(wrongPassword.exit).toEqual({ code: 1, signal: null });
    expect(wrongPassword.output).toContain(
      'relay: Kafka refused the login of User:hookrail-relay (KAFKA_SASL_MECHANISM=scram-sha-512): check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD',
    );
    expect(wrongPassword.output).not.toContain('not-the-password');
    expect(wrongPassword.output).not.toMatch(/\n\s+at /);

    const untrusted = await refusal(
      'relay',
      kafka.env('hookrail-relay', { KAFKA_TLS_CA_FILE: path.join(kafka.tlsDir, 'other-ca.pem') }),
    );
    expect(untrusted.exit).toEqual({ code: 1, signal: null });
    expect(untrusted.output).toMatch(/relay: the brokers' TLS certificate is not trusted \(\w+\): KAFKA_TLS_CA_FILE=/);

    // The relay's principal may not read the ledger's group.
    const noAcl = await refusal('consumers', { ...kafka.env('hookrail-relay'), CONSUMER_GROUPS: 'ledger' });
    expect(noAcl.exit).toEqual({ code: 1, signal: null });
    expect(noAcl.output).toMatch(/consumers: Kafka refused User:hookrail-relay access to (topic|consumer group) \S+/);

    // The administrator may see everything: a namespace without topics is named as missing, with the command.
    const missing = await refusal('consumers', {
      ...kafka.env('admin'),
      CONSUMER_GROUPS: 'ledger',
      KAFKA_NAMESPACE: `${uniqueName('no-topics')}.`,
      DEAD_LETTER_STORE: 'false',
    });
    expect(missing.exit).toEqual({ code: 1, signal: null });
    expect(missing.output).toMatch(
      /consumers: Kafka has no topic \S+: create the project's topics with npm run topics:create/,
    );
  }, 300_000);
});
