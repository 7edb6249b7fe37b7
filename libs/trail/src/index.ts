export * from './event-trail';
export * from './find-events';
export * from './sources';
export * from './trail';
