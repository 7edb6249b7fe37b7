import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { migrate, withDatabase } from '@app/db';
import { TestDatabase } from './test-database';
import { waitFor } from './wait-for';

const root = path.resolve(__dirname, '../../..');
const script = path.join(root, 'scripts/db/pg-secure.sh');

/**
 * The secure development Postgres (`scripts/db/pg-secure.sh up`: a second cluster that accepts only TLS with a
 * password), started when it does not answer yet. Its state dir holds the CA and the password of `hookrail`.
 */
export class SecurePostgres {
  private constructor(private readonly serverUrl: string) {}

  static start(): SecurePostgres {
    try {
      execFileSync('bash', [script, 'status'], { stdio: 'ignore' });
    } catch {
      execFileSync('bash', [script, 'up'], { stdio: 'inherit' });
    }
    return new SecurePostgres(execFileSync('bash', [script, 'url', 'postgres'], { encoding: 'utf8' }).trim());
  }

  /** The URL of `database` with sslmode=verify-full and the development CA, changed by `edit` (a wrong CA, host, ...). */
  url(database: string, edit: (url: URL) => void = () => undefined): string {
    const url = new URL(withDatabase(this.serverUrl, database));
    edit(url);
    return url.toString();
  }

  /** The file of the development CA (`sslrootcert`), and of another CA that signed nothing of this server's. */
  get caFile(): string {
    return new URL(this.serverUrl).searchParams.get('sslrootcert')!;
  }

  get otherCaFile(): string {
    return path.join(path.dirname(this.caFile), 'other-ca.pem');
  }

  get password(): string {
    return decodeURIComponent(new URL(this.serverUrl).password);
  }

  /** A database of its own, created and migrated over TLS as `hookrail` (no superuser). */
  async createDatabase(): Promise<TestDatabase> {
    const name = `hookrail_test_${process.env.HOOKRAIL_TEST_RUN ?? process.pid}_${randomBytes(5).toString('hex')}`;
    const admin = () => this.admin();
    await admin().then((client) => client.query(`CREATE DATABASE "${name}"`).finally(() => client.end()));
    const url = this.url(name);
    await migrate(url);
    return {
      name,
      url,
      // A refused connection's backend (a wrong password or CA, say) can linger a moment with no role yet, and a
      // role that is no superuser may not end it: the drop is tried again until it has gone (waitFor retries on an
      // error and, past its deadline, reports the last one).
      drop: () =>
        waitFor(
          () =>
            admin().then((client) =>
              client
                .query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
                .then(() => true)
                .finally(() => client.end()),
            ),
          { timeoutMs: 15_000, what: `database ${name} dropped` },
        ).then(() => undefined),
    };
  }

  private async admin(): Promise<Client> {
    const client = new Client({ connectionString: this.serverUrl });
    await client.connect();
    return client;
  }
}
