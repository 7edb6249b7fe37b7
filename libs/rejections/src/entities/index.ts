export * from './source-rejection.entity';
