import { OperatorAuditRepository } from '@app/audit';
import { DataSource, EntityManager } from 'typeorm';
import { DeadLetterAction } from './dead-letter-states';

/** The operator audit's subject type for replays and purges of dead letters; the subject id is the group, or `*`. */
export const DEAD_LETTERS_SUBJECT = 'dead-letters';

export interface AuditEntry {
  id: string;
  at: Date;
  actor: string;
  action: DeadLetterAction;
  filter: Record<string, unknown>;
  count: number;
  deadLetterIds: string[];
}

/** One audited action, once for each of the given dead letters it named. */
export interface AuditedAction {
  deadLetterId: string;
  at: Date;
  actor: string;
  action: DeadLetterAction;
  /** Dead letters the request changed in all. */
  count: number;
}

/** Replays and purges in the operator audit, seen as dead-letter actions. */
export class DeadLetterAudit {
  private readonly audit: OperatorAuditRepository;

  constructor(db: DataSource | EntityManager) {
    this.audit = new OperatorAuditRepository(db);
  }

  async record(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<void> {
    const group = entry.filter.group;
    await this.audit.record({
      actor: entry.actor,
      action: entry.action,
      subjectType: DEAD_LETTERS_SUBJECT,
      subjectId: typeof group === 'string' ? group : '*',
      details: entry.filter,
      count: entry.count,
      affectedIds: entry.deadLetterIds,
    });
  }

  /** Newest first. */
  async recent(limit: number): Promise<AuditEntry[]> {
    return (await this.audit.recentOf(DEAD_LETTERS_SUBJECT, limit)).map((entry) => ({
      id: entry.id,
      at: entry.at,
      actor: entry.actor,
      action: entry.action as DeadLetterAction,
      filter: entry.details,
      count: entry.count,
      deadLetterIds: entry.affectedIds,
    }));
  }

  /** The actions on these dead letters, oldest first. */
  async actionsOn(deadLetterIds: string[]): Promise<AuditedAction[]> {
    return (await this.audit.actionsOn(DEAD_LETTERS_SUBJECT, deadLetterIds)).map(({ affectedId, ...action }) => ({
      ...action,
      deadLetterId: affectedId,
      action: action.action as DeadLetterAction,
    }));
  }
}
