import { HOST_NOT_IN_CERTIFICATE, isUntrustedCertificate } from '@app/config';
import { databaseName } from './database-url';

interface ErrorLike {
  code?: string;
  message?: string;
  cause?: unknown;
}

/** `host:port` of DATABASE_URL, as log lines name the server. */
export function databaseAddress(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || 5432}`;
}

/**
 * The one line that tells an operator why Postgres refused this connection, naming what to change in DATABASE_URL
 * (never its password); undefined when the server is only away (waiting for it is right). Waiting cannot mend any of
 * these: a wrong password, a server that wants TLS, a certificate the CA does not vouch for or that names another
 * host, a CA file that cannot be read, a database that does not exist.
 */
export function explainPostgresError(error: unknown, url: string): string | undefined {
  const where = `Postgres at ${databaseAddress(url)}`;
  const params = new URL(url).searchParams;
  for (let cause = error as ErrorLike | undefined, depth = 0; cause && depth < 4; depth++) {
    const { code, message = '' } = cause;
    if (code === '28P01')
      return `${where} refuses the password of user ${new URL(url).username || 'postgres'} (DATABASE_URL): ${message}`;
    if (code === '28000' && /no encryption/.test(message))
      return (
        `${where} accepts only TLS connections: add sslmode=verify-full&sslrootcert=<its CA file> to DATABASE_URL ` +
        `(${message})`
      );
    if (code === '28000') return `${where} refuses this connection (DATABASE_URL): ${message}`;
    if (code === '3D000')
      return `DATABASE_URL names database ${databaseName(url)} on ${databaseAddress(url)}, which does not exist (npm run db:migrate creates and migrates it)`;
    if (isUntrustedCertificate(code))
      return (
        `the TLS certificate of ${where} is not trusted (${code}): sslrootcert in DATABASE_URL` +
        `${params.get('sslrootcert') ? `=${params.get('sslrootcert')}` : ' (unset: the system trust store)'}` +
        ` must hold the authority that signed it`
      );
    if (code === HOST_NOT_IN_CERTIFICATE)
      return `the TLS certificate of ${where} does not name the host in DATABASE_URL: ${message}`;
    if (/does not support SSL connections/.test(message))
      return `${where} does not offer TLS, and DATABASE_URL asks for it (sslmode=${params.get('sslmode')})`;
    if (code === 'ENOENT' || code === 'EACCES') {
      const file = ['sslrootcert', 'sslcert', 'sslkey'].find(
        (name) => params.get(name) && message.includes(params.get(name)!),
      );
      if (file) return `DATABASE_URL's ${file}=${params.get(file)} cannot be read (${code})`;
    }
    cause = cause.cause as ErrorLike | undefined;
  }
  return undefined;
}
