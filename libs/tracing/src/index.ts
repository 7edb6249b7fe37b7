export * from './messaging-attributes';
export * from './spans';
export * from './start-tracing';
export * from './trace-context';
export * from './tracing-enabled';
export * from './tracing.env';
