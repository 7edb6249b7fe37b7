/**
 * The outbound webhooks' configuration (`@app/webhooks/light`), without the repositories and use cases: the CLI's
 * configuration extends it, and loading TypeORM with it would slow every command's start. The payload filters' check
 * is here too, for a command that saves an endpoint to refuse bad filters before it connects.
 */
export * from './config/outbound-webhooks.env';
export * from './payload-filters';
