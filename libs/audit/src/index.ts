export * from './operator-audit.entity';
export * from './operator-audit.repository';
