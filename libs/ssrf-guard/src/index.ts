export * from './allow-list';
export * from './guarded-http-client';
export * from './ip-address';
export * from './ip-ranges';
export * from './pinned-lookup';
export * from './ssrf-guard';
