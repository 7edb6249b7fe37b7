import { TOPICS } from '@app/contracts';
import { createKafka, kafkaFromEnv } from '@app/kafka';
import { freePort, waitFor } from '@app/testing';
import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);
const kafkaVersion = /<kafka\.version>(.*)<\/kafka\.version>/.exec(
  readFileSync(path.join(root, 'scripts/kafka/pom.xml'), 'utf8'),
)![1];
const kafkaLibs = path.join(process.env.KAFKA_CACHE_DIR || path.join(root, '.cache'), `kafka-${kafkaVersion}/libs`);

/**
 * The `secure` profile of docker-compose.yml without Docker: its two scripts run here as the containers run them
 * (`scripts/compose/secrets.sh` makes the certificates and passwords, `scripts/compose/kafka-secure.sh` formats and
 * starts the broker from the Kafka jars the project's Kafka script resolved). Then what the profile's one-shot services
 * do: the administrator creates the topics and the ACLs, and each program logs in with its password file and reaches
 * only what its ACLs allow, over the listener the apps use (by host name, as in the compose network) and the one
 * published to the host.
 */
describe("docker-compose's secure profile: its secrets and its broker (SASL_SSL, SCRAM, ACLs)", () => {
  let dir: string;
  let broker: ChildProcess;
  let hostPort: number;
  let internalPort: number;

  /** What a program sets to reach the broker as `principal` (the compose file's variables, with this run's paths). */
  const envOf = (principal: string, port = hostPort, mechanism = 'scram-sha-512'): Record<string, string> => ({
    KAFKA_BROKERS: `${port === hostPort ? '127.0.0.1' : 'localhost'}:${port}`,
    KAFKA_TLS: 'true',
    KAFKA_TLS_CA_FILE: path.join(dir, 'secrets/tls/ca.pem'),
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: principal,
    KAFKA_SASL_PASSWORD_FILE: path.join(dir, `secrets/kafka/${principal}.password`),
  });

  /** Runs a project command (`topics:create`, `kafka:acls`) as `principal`. */
  const as = (principal: string, entry: string, args: string[] = []) =>
    run(process.execPath, [path.join(root, 'scripts/run-built.js'), entry, ...args], {
      cwd: root,
      env: { ...process.env, KAFKA_NAMESPACE: '', ...envOf(principal), TOPIC_PARTITIONS: '1' },
    });
  const asAdmin = (entry: string, args: string[] = []) => as('admin', entry, args);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-compose-secure-'));
    const uid = String(os.userInfo().uid);
    execFileSync('bash', [path.join(root, 'scripts/compose/secrets.sh'), path.join(dir, 'secrets')], {
      env: { ...process.env, SECRETS_APP_UID: uid, SECRETS_POSTGRES_UID: uid },
    });
    [hostPort, internalPort] = [await freePort(), await freePort()];
    broker = spawn('bash', [path.join(root, 'scripts/compose/kafka-secure.sh')], {
      detached: true,
      stdio: 'ignore',
      env: {
        ...process.env,
        SECRETS_DIR: path.join(dir, 'secrets'),
        KAFKA_LIBS: kafkaLibs,
        DATA_DIR: path.join(dir, 'data'),
        HOST_LISTENER: `127.0.0.1:${hostPort}`,
        HOST_ADVERTISED: `127.0.0.1:${hostPort}`,
        INTERNAL_LISTENER: `127.0.0.1:${internalPort}`,
        INTERNAL_ADVERTISED: `localhost:${internalPort}`,
        CONTROLLER_PORT: String(await freePort()),
        KAFKA_HEAP: '384m',
        KAFKA_LOG4J: path.join(root, 'scripts/kafka/log4j2.properties'),
      },
    });
    const admin = createKafka('compose-secure-test', kafkaFromEnv(envOf('admin'))).admin();
    await waitFor(
      async () => {
        await admin.connect();
        return (await admin.describeCluster()).brokers.length === 1;
      },
      { what: 'the compose profile broker serving the administrator', timeoutMs: 90_000, intervalMs: 500 },
    );
    await admin.disconnect();
  }, 120_000);

  afterAll(() => {
    if (broker?.pid) process.kill(-broker.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a certificate for the compose host names, a password per principal and a verify-full DATABASE_URL', () => {
    const names = execFileSync('openssl', ['x509', '-noout', '-ext', 'subjectAltName'], {
      input: readFileSync(path.join(dir, 'secrets/tls/server.crt')),
    }).toString();
    expect(names).toContain('DNS:kafka-secure');
    expect(names).toContain('DNS:postgres-secure');
    const url = new URL(readFileSync(path.join(dir, 'secrets/database-url'), 'utf8'));
    expect(url.hostname).toBe('postgres-secure');
    expect(url.searchParams.get('sslmode')).toBe('verify-full');
    expect(url.password).toBe(readFileSync(path.join(dir, 'secrets/postgres/password'), 'utf8'));
    expect(readFileSync(path.join(dir, 'secrets/postgres/pg_hba.conf'), 'utf8')).toMatch(
      /^host\s+all all 0\.0\.0\.0\/0\s+reject$/m,
    );
  });

  it('lets the administrator create the topics and ACLs, and each program only what its ACLs allow', async () => {
    await asAdmin('libs/kafka/src/cli/topics-create.command.ts');
    const { stdout } = await asAdmin('libs/kafka/src/cli/kafka-acls.command.ts', ['--apply']);
    expect(stdout).toMatch(/kafka:acls: \d+ ACLs for User:hookrail-admin/);

    // The relay publishes events, over the listener the compose network uses, by host name, with SCRAM-SHA-256.
    const relay = createKafka(
      'compose-secure-relay',
      kafkaFromEnv(envOf('hookrail-relay', internalPort, 'scram-sha-256')),
    );
    const producer = relay.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
    await producer.connect();
    try {
      await expect(
        producer.send({ topic: TOPICS.shopOrders, messages: [{ key: 'o-1', value: '{}' }] }),
      ).resolves.toEqual(expect.any(Array));
      // ... and nothing its ACLs leave out: a dead-letter topic is the consumers'.
      await expect(producer.send({ topic: 'ledger.dlt', messages: [{ value: '{}' }] })).rejects.toThrow(
        /authorized|authorization/i,
      );
    } finally {
      await producer.disconnect();
    }

    // Creating topics is the administrator's alone, and a program that tries is told so in one line.
    await expect(as('hookrail-relay', 'libs/kafka/src/cli/topics-create.command.ts')).rejects.toMatchObject({
      stderr: expect.stringMatching(
        /^topics:create: failed: Kafka refused User:hookrail-relay access to create topics \(\w+_AUTHORIZATION_FAILED\)/,
      ),
    });
    const cli = createKafka('compose-secure-cli', kafkaFromEnv(envOf('hookrail-cli', hostPort, 'plain'))).admin();
    await cli.connect();
    try {
      await expect(cli.createTopics({ topics: [{ topic: 'not-for-the-cli' }] })).rejects.toThrow();
      expect(await cli.fetchTopicOffsets(TOPICS.shopOrders)).toEqual([expect.objectContaining({ high: '1' })]);
    } finally {
      await cli.disconnect();
    }
  });

  it('refuses a program whose password is not the one the broker was formatted with', async () => {
    const wrong = {
      ...envOf('hookrail-consumers'),
      KAFKA_SASL_PASSWORD_FILE: path.join(dir, 'secrets/kafka/admin.password'),
    };
    const admin = createKafka('compose-secure-wrong', kafkaFromEnv(wrong), undefined, {
      retry: { retries: 0 },
    }).admin();
    await expect(admin.connect()).rejects.toThrow(/SASL|authentication/i);
  });
});
