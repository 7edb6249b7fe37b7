export * from './base.env';
export * from './bootstrap';
export * from './config-error';
export * from './load-config';
export * from './wait-for-dependency';
export * from './development-env';
