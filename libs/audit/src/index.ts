export * from './operator-audit.repository';
