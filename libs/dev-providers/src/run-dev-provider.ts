/**
 * The `main` of a development provider's npm script: starts it, prints one line with its URL and routes, and stops it
 * on SIGTERM or SIGINT. A start failure (port taken) prints one line and exits 1.
 */
export function runDevProvider(
  name: string,
  start: () => Promise<{ url: string; close(): Promise<void> }>,
  describe: (url: string) => string,
): void {
  start()
    .then((provider) => {
      process.stdout.write(`${describe(provider.url)}\n`);
      const stop = () => provider.close().then(() => process.exit(0));
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    })
    .catch((error: Error) => {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(1);
    });
}
