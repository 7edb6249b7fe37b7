/**
 * The outbound webhooks' configuration (`@app/webhooks/light`), without the repositories and use cases: the CLI's
 * configuration extends it, and loading TypeORM with it would slow every command's start.
 */
export * from './config/outbound-webhooks.env';
