import { ConfigError } from './config-error';

/** A dependency an app needs before it can start: what it is, where (the variable that says so), how to check it. */
export interface Dependency {
  /** E.g. `Postgres at 127.0.0.1:5432 (DATABASE_URL)`. */
  name: string;
  /** A short name for metrics, e.g. `postgres`, `kafka`. */
  label?: string;
  /**
   * Resolves when the dependency is ready; throws what is wrong otherwise (its message is logged), a ConfigError when
   * waiting cannot help (the app stops with its line).
   */
  check(): Promise<void>;
}

export interface WaitOptions {
  /** One log line at most this often while it waits (default 5 s). */
  logEveryMs?: number;
  /** Longest wait between two checks (default 5 s); the first retry comes after 250 ms. */
  maxDelayMs?: number;
  /** Stops waiting (the app is stopping): the promise rejects. */
  signal?: AbortSignal;
  /** Told the outcome of every check (a gauge of each dependency's reachability follows the wait). */
  onCheck?: (dependency: Dependency, up: boolean) => void;
}

/**
 * Checks each dependency in turn until it answers, retrying with a growing delay (250 ms, doubling, up to
 * `maxDelayMs`) and logging one line every few seconds that names it and says what is wrong, then one line when it
 * answers after a wait. An app starts in any order with what it needs, as the relay always did.
 */
export async function waitForDependencies(
  dependencies: Dependency[],
  log: { warn(fields: object, message: string): void; info(fields: object, message: string): void },
  options: WaitOptions = {},
): Promise<void> {
  const logEveryMs = options.logEveryMs ?? 5_000;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  for (const dependency of dependencies) {
    const startedAt = Date.now();
    let lastLogAt = 0;
    let delayMs = 250;
    for (;;) {
      if (options.signal?.aborted) throw new Error(`stopped while waiting for ${dependency.name}`);
      try {
        await dependency.check();
        options.onCheck?.(dependency, true);
        if (lastLogAt > 0) log.info({ waitedMs: Date.now() - startedAt }, `${dependency.name} answers; going on`);
        break;
      } catch (error) {
        options.onCheck?.(dependency, false);
        // Refused credentials, an untrusted certificate, a missing permission: waiting would not change them.
        if (error instanceof ConfigError) throw error;
        if (Date.now() - lastLogAt >= logEveryMs) {
          lastLogAt = Date.now();
          log.warn(
            { waitedMs: Date.now() - startedAt, err: (error as Error).message },
            `waiting for ${dependency.name}`,
          );
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(maxDelayMs, delayMs * 2);
    }
  }
}
