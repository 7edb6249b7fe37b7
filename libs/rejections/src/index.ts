export * from './source-rejections.repository';
export * from './source-rejections.summary';
