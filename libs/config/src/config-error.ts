/** A configuration problem found at boot; its message is the one line the process prints before exiting. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
