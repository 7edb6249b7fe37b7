export * from './operator-token.entity';
