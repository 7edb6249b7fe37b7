import { MIN_SECONDS } from './fault-schedule';
import { randomSeed } from './random';

/** A chaos run's settings, from the environment (see docs/development.md, Under fire). */
export interface ChaosConfig {
  seed: number;
  /** Length of the traffic; the faults happen within it, the drain comes after. */
  seconds: number;
  /** New events offered per second (duplicates and retries come on top). */
  rate: number;
  /** How long the system may take to drain after the traffic and the last fault. */
  drainSeconds: number;
  /** Build the apps first (`npm run build`); the run starts them from `dist/`. */
  build: boolean;
  /** The Postgres server the run makes its database on (it connects to it directly and through a proxy). */
  postgresUrl: string;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function readChaosConfig(env: NodeJS.ProcessEnv = process.env): ChaosConfig {
  return {
    seed: integer(env, 'CHAOS_SEED', randomSeed(), 0, 4294967295),
    seconds: integer(env, 'CHAOS_SECONDS', 120, MIN_SECONDS, 86_400),
    rate: integer(env, 'CHAOS_RATE', 30, 1, 5000),
    drainSeconds: integer(env, 'CHAOS_DRAIN_SECONDS', 180, 10, 3600),
    build: env.CHAOS_BUILD !== 'false',
    postgresUrl: env.CHAOS_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}
