import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { ConfigError } from './config-error';
import { readSecretFiles, secretNames } from './secret';

type EnvClass<T> = new () => T;

/**
 * Builds the typed configuration of an app from the environment, once, at boot. Every invalid variable is named in
 * one ConfigError (never its value: it may hold a secret), so that one start tells everything that is wrong.
 * `prepare` sees the configuration before it is validated (to tell a conditional validation what it depends on).
 * A variable marked `@Secret()` may be given as `<NAME>_FILE` instead (never both).
 */
export function loadConfig<T extends object>(
  envClass: EnvClass<T>,
  env: NodeJS.ProcessEnv = process.env,
  prepare?: (config: T) => void,
): T {
  const secrets = readSecretFiles(env, secretNames(envClass));
  env = secrets.env;
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(envClass, present, { exposeDefaultValues: true });
  prepare?.(config);
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0 || secrets.problems.length > 0) {
    // A secret whose file was refused is named once, by that problem.
    const named = errors.filter(
      (error) => !secrets.problems.some((problem) => problem.startsWith(`${error.property}`)),
    );
    const problems = [...secrets.problems, ...named.map((error) => describe(error, env))];
    throw new ConfigError(configErrorMessage(problems), problems);
  }
  return config;
}

/**
 * The one line of a configuration error with these problems: `configuration error: <problem>` for one, and for several
 * `configuration error (N problems): <problem>; <problem>; …`.
 */
export function configErrorMessage(problems: readonly string[]): string {
  if (problems.length === 1) return `configuration error: ${problems[0]}`;
  return `configuration error (${problems.length} problems): ${problems.join('; ')}`;
}

function describe(error: ValidationError, env: NodeJS.ProcessEnv): string {
  const name = error.property;
  if (env[name] === undefined || env[name] === '') return `${name} is required but not set`;
  const reasons = Object.values(error.constraints ?? {}).join(', ');
  return `${name} is invalid: ${reasons}`;
}
