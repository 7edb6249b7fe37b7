import { ValidateIf } from 'class-validator';

const running = new WeakSet<object>();

/** Marks a group's configuration as that of a group this process runs (CONSUMER_GROUPS); see WhenGroupRuns. */
export function markGroupRunning(config: object): void {
  running.add(config);
}

/**
 * Validates the decorated variable only when this process runs the group whose configuration declares it, and `also`
 * holds: a provider's key is required where the group calls the provider, not in every consumers process.
 */
export function WhenGroupRuns<T extends object>(also: (config: T) => boolean = () => true): PropertyDecorator {
  return ValidateIf((config: T) => running.has(config) && also(config));
}
