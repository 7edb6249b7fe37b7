import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The development profile of `npm start`, relative to the repository (HOOKRAIL_DEV_ENV names another file): its
 * generated secrets and the outbound-webhook allowances for receivers on this machine, kept between starts
 * (git-ignored) so that a console session and a sender's secret keep working, and read by the CLI and
 * `npm run webhook:send` in another shell. Its DATABASE_URL records which installation it belongs to.
 */
export const DEVELOPMENT_ENV_FILE = path.join('.hookrail', 'dev.env');

/** Where the profile is kept: HOOKRAIL_DEV_ENV, else .hookrail/dev.env in the repository. */
export function developmentEnvFile(env: NodeJS.ProcessEnv, root: string | undefined): string | undefined {
  return env.HOOKRAIL_DEV_ENV || (root && path.join(root, DEVELOPMENT_ENV_FILE));
}

/**
 * The repository's root: the nearest directory above `from` with a package-lock.json (the same from the TypeScript
 * sources and from their compiled copies under dist/); undefined outside a repository.
 */
export function findRepoRoot(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package-lock.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** As findRepoRoot, for the scripts that only run inside the repository. */
export function repoRoot(from: string = __dirname): string {
  const root = findRepoRoot(from);
  if (!root) throw new Error(`no package-lock.json above ${from}`);
  return root;
}

/** The profile's variables, or undefined when `npm start` never wrote one (or there is no repository around). */
export function readDevelopmentEnv(file: string): Record<string, string> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) values[match[1]] = match[2].trim();
  }
  return values;
}

/** Writes the profile, readable by its owner only (it holds the admin token). */
export function writeDevelopmentEnv(file: string, values: Record<string, string>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const lines = Object.entries(values).map(([name, value]) => `${name}=${value}`);
  writeFileSync(
    file,
    [
      '# The development profile of npm start, kept between starts. Delete this file for new secrets.',
      '# A variable set in the environment wins over the same one here; DATABASE_URL names the installation it is for.',
      ...lines,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
}

/**
 * `env` with the profile's values for the variables it leaves unset, when it points at the installation the profile
 * belongs to (the same DATABASE_URL, `defaultDatabaseUrl` when unset): how a second shell's CLI and sender agree with
 * what npm start runs. Otherwise `env` itself.
 */
export function withDevelopmentEnv(
  env: NodeJS.ProcessEnv,
  file: string | undefined,
  defaultDatabaseUrl: string,
): NodeJS.ProcessEnv {
  const profile = file && readDevelopmentEnv(file);
  if (!profile || profile.DATABASE_URL !== (env.DATABASE_URL || defaultDatabaseUrl)) return env;
  const merged = { ...env };
  for (const [name, value] of Object.entries(profile)) if (name !== 'DATABASE_URL') merged[name] ??= value;
  return merged;
}
