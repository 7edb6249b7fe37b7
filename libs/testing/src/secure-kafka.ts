import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../../..');
const script = path.join(root, 'scripts/kafka/kafka.sh');
const run = promisify(execFile);

/**
 * The secure development broker (`KAFKA_SECURE=1 kafka.sh up`: SASL_SSL, SCRAM users, an ACL per program), started
 * when it does not run yet. Its state dir holds the CA and the principals' passwords.
 */
export class SecureKafka {
  static readonly stateDir = process.env.KAFKA_SECURE_STATE_DIR || path.join(root, '.kafka-secure');
  readonly brokers = `127.0.0.1:${process.env.KAFKA_SECURE_PORT || 9094}`;
  readonly tlsDir = path.join(SecureKafka.stateDir, 'tls');
  readonly caFile = path.join(this.tlsDir, 'ca.pem');
  private readonly passwords: Record<string, string>;

  private constructor() {
    const lines = readFileSync(path.join(SecureKafka.stateDir, 'credentials.env'), 'utf8').trim().split('\n');
    this.passwords = Object.fromEntries(lines.map((line) => line.split('=') as [string, string]));
  }

  static start(): SecureKafka {
    const env = { ...process.env, KAFKA_SECURE: '1' };
    const running = existsSync(path.join(SecureKafka.stateDir, 'broker.pid')) ? spawnStatus(env) === 0 : false;
    if (!running) execFileSync('bash', [script, 'up'], { env, stdio: 'inherit' });
    return new SecureKafka();
  }

  password(principal: string): string {
    const value = this.passwords[`${principal.toUpperCase().replace(/-/g, '_')}_PASSWORD`];
    if (!value) throw new Error(`no password for ${principal} in ${SecureKafka.stateDir}/credentials.env`);
    return value;
  }

  /** What a program sets to reach the broker as `principal`, over TLS with SCRAM-SHA-512 unless told otherwise. */
  env(principal: string, overrides: Record<string, string> = {}): Record<string, string> {
    return {
      KAFKA_BROKERS: this.brokers,
      KAFKA_TLS: 'true',
      KAFKA_TLS_CA_FILE: this.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: principal,
      KAFKA_SASL_PASSWORD: this.password(principal),
      ...overrides,
    };
  }

  /** The client certificate and key of `principal` (mutual TLS), the key given as a file. */
  clientCertificate(principal: string): Record<string, string> {
    return {
      KAFKA_TLS_CERT_FILE: path.join(this.tlsDir, `client-${principal}.crt`),
      KAFKA_TLS_KEY_FILE: path.join(this.tlsDir, `client-${principal}.key`),
    };
  }

  /** Runs a project command (`topics:create`, `kafka:acls`) as the administrator, for a namespace. */
  async asAdmin(entry: string, namespace: string, args: string[] = []): Promise<string> {
    const env = { ...process.env, ...this.env('admin'), KAFKA_NAMESPACE: namespace, TOPIC_PARTITIONS: '1' };
    const { stdout } = await run(process.execPath, [path.join(root, 'scripts/run-built.js'), entry, ...args], {
      cwd: root,
      env,
    });
    return stdout;
  }
}

function spawnStatus(env: NodeJS.ProcessEnv): number {
  try {
    execFileSync('bash', [script, 'status'], { env, stdio: 'ignore' });
    return 0;
  } catch (error) {
    return (error as { status?: number }).status ?? 1;
  }
}
