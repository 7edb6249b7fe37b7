import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { ConfigError } from './config-error';

type EnvClass<T> = new () => T;

/**
 * Builds the typed configuration of an app from the environment, once, at boot.
 * The first invalid variable becomes a ConfigError that names it (never its value: it may hold a secret).
 */
export function loadConfig<T extends object>(envClass: EnvClass<T>, env: NodeJS.ProcessEnv = process.env): T {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(envClass, present, { exposeDefaultValues: true });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(describe(errors[0], env));
  return config;
}

function describe(error: ValidationError, env: NodeJS.ProcessEnv): string {
  const name = error.property;
  if (env[name] === undefined || env[name] === '') return `configuration error: ${name} is required but not set`;
  const reasons = Object.values(error.constraints ?? {}).join('; ');
  return `configuration error: ${name} is invalid: ${reasons}`;
}
