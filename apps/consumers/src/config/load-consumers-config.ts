import { ConfigError, configErrorMessage, loadConfig } from '@app/config';
import { getMetadataStorage } from 'class-validator';
import { CONSUMER_SERVICES, GroupsEnv } from '../consumer-services';
import { ConsumersEnv } from './consumers.env';
import { markGroupRunning } from './group-env';

/** The consumers app's configuration: the variables every group shares and each group's own. */
export type ConsumersConfig = ConsumersEnv & GroupsEnv;

/**
 * The consumers app's configuration, checked in one go: the shared variables (ConsumersEnv) and every group's own
 * (`env` in its definition), also of groups this process does not run, so that a bad value is found on any machine.
 * Every problem of all of them is in the one ConfigError.
 */
export function loadConsumersConfig(env: NodeJS.ProcessEnv = process.env): ConsumersConfig {
  const problems: string[] = [];
  const load = <T extends object>(envClass: new () => T, prepare?: (config: T) => void): T | undefined => {
    try {
      return loadConfig(envClass, env, prepare);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  // The groups this process runs, as CONSUMER_GROUPS lists them, also when another shared variable is invalid.
  let running: readonly string[] = [];
  const shared = load(ConsumersEnv, (config) => (running = config.CONSUMER_GROUPS ?? []));
  const groups = Object.values(CONSUMER_SERVICES).map(({ group, env: groupEnv }) =>
    groupEnv
      ? declaredBy(
          groupEnv,
          load(groupEnv, (config) => {
            if (running.includes(group)) markGroupRunning(config);
          }),
        )
      : {},
  );
  if (problems.length > 0) throw new ConfigError(configErrorMessage(problems), problems);
  return Object.assign(shared!, ...groups) as ConsumersConfig;
}

/**
 * The variables `envClass` declares, of its configuration: loadConfig also copies the rest of the environment onto
 * it, and a group's copy of another group's variable (unparsed) must not replace that group's value.
 */
function declaredBy<T extends object>(envClass: new () => T, config: T | undefined): Partial<T> {
  const validated = getMetadataStorage().getTargetValidationMetadatas(envClass, '', false, false);
  const names = new Set([...Object.keys(new envClass()), ...validated.map((entry) => entry.propertyName)]);
  return Object.fromEntries(Object.entries(config ?? {}).filter(([name]) => names.has(name))) as Partial<T>;
}
