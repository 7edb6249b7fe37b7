/**
 * The logger without its NestJS module (`@app/logger/light`): what the configuration and the CLI use, so that neither
 * loads NestJS.
 */
export * from './logger';
export * from './error-message';
