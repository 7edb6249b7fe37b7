export * from './call-provider';
export * from './provider-errors';
export * from './provider-status';
