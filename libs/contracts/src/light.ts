/**
 * Topic, group and header names (`@app/contracts/light`), without the event classes and the catalogue: what the CLI's
 * dead-letter and lag commands need, so that they start without loading the rest.
 */
export * from './headers';
export * from './topics';
