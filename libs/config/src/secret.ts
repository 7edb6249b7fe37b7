import { readFileSync } from 'node:fs';

/** The secret variables each env class declares itself (not its base classes'). */
const SECRETS = new Map<Function, string[]>();

/**
 * Marks a variable as a secret: it may be given as `<NAME>_FILE`, the path of a file that holds it (the convention of
 * the official Docker images, for secrets mounted by Docker or Kubernetes), and its value is never written anywhere.
 */
export function Secret(): PropertyDecorator {
  return (target, propertyName) => {
    SECRETS.set(target.constructor, [...(SECRETS.get(target.constructor) ?? []), propertyName as string]);
  };
}

/** The secret variables of an env class, its base classes' too. */
export function secretNames(envClass: Function): string[] {
  const names: string[] = [];
  for (let type = envClass; type && type !== Function.prototype; type = Object.getPrototypeOf(type))
    names.push(...(SECRETS.get(type) ?? []));
  return names;
}

/**
 * The environment with each secret given as `<NAME>_FILE` read into `<NAME>`. A file's content is taken as it is, less
 * one trailing line break. Both forms of one secret are refused rather than one silently winning; so is a file that
 * cannot be read. Returns the problems found, each naming the variable (never the value).
 */
export function readSecretFiles(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
): { env: NodeJS.ProcessEnv; problems: string[] } {
  const resolved: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    const path = env[`${name}_FILE`];
    if (path === undefined || path === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name} and ${name}_FILE are both set: set one of them`);
      continue;
    }
    try {
      resolved[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${name}_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'} ${path}`);
    }
    delete resolved[`${name}_FILE`];
  }
  return { env: resolved, problems };
}
