/** Node socket errors: the server cannot be reached. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH']);

/**
 * True when an error means "the database is not reachable or not serving" (a 503 and a retry), as opposed to a
 * statement that failed. SQLSTATE classes: 08 connection exception, 28 authorization, 53 insufficient resources,
 * 57P operator intervention (shutdown), 3D000 database missing, 55000 when connections are not being accepted.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? (error as { driverError?: { code?: string } }).driverError?.code;
  if (code && SOCKET_CODES.has(code)) return true;
  if (code && (/^(08|28|53|57P)/.test(code) || code === '3D000')) return true;
  if (code === '55000' && /not currently accepting connections/.test(error.message)) return true;
  return /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/i.test(
    error.message,
  );
}

/**
 * True when the pool gave no connection in time: every one was in use and none came free (pg-pool's wait), or a new
 * one took too long to open. Postgres may be down, or only slow to serve this process's queue: the caller tells which
 * (the ingress answers `overloaded` when it committed a moment ago, `database_unavailable` otherwise).
 */
export function isPoolWaitTimeout(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(cause.message))
      return true;
  }
  return false;
}

/**
 * True when a statement lost a race with another transaction and would succeed when run again: SQLSTATE 40P01
 * (deadlock detected, Postgres aborted this transaction to break the cycle) or 40001 (serialization failure).
 */
export function isTransactionConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? (error as { driverError?: { code?: string } }).driverError?.code;
  return code === '40P01' || code === '40001';
}

export const UNIQUE_VIOLATION = '23505';
