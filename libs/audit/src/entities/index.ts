export * from './operator-audit.entity';
