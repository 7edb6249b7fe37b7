export * from './dev-provider.server';
export * from './http-io';
export * from './idempotency-store';
export * from './run-dev-provider';
export * from './idempotent-route';
