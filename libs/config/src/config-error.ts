/**
 * Configuration problems found at boot; its message is the one line the process prints before exiting. `problems`
 * holds each on its own, so that two sources of problems (the environment, the sources file) make one line.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: string[];

  constructor(message: string, problems?: string[]) {
    super(message);
    this.problems = problems ?? [message.replace(/^configuration error(?: \(\d+ problems\))?: /, '')];
  }
}
