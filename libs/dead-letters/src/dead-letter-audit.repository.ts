import { DataSource, EntityManager } from 'typeorm';
import { DeadLetterAction } from './dead-letter-states';

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

/** The dead_letter_audit statements. */
export class DeadLetterAuditRepository {
  constructor(private readonly db: DataSource | EntityManager) {}

  async record(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<void> {
    await this.db.query(
      `INSERT INTO dead_letter_audit (actor, action, filter, count, dead_letter_ids) VALUES ($1, $2, $3, $4, $5::uuid[])`,
      [entry.actor, entry.action, JSON.stringify(entry.filter), entry.count, entry.deadLetterIds],
    );
  }

  /** Newest first. */
  async recent(limit: number): Promise<AuditEntry[]> {
    const rows = await this.db.query(
      `SELECT id, at, actor, action, filter, count, dead_letter_ids FROM dead_letter_audit ORDER BY id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((row: Record<string, any>) => ({
      id: String(row.id),
      at: new Date(row.at),
      actor: row.actor,
      action: row.action,
      filter: row.filter,
      count: row.count,
      deadLetterIds: row.dead_letter_ids,
    }));
  }

  /** The actions on these dead letters, oldest first. */
  async actionsOn(deadLetterIds: string[]): Promise<AuditedAction[]> {
    const rows = await this.db.query(
      `SELECT d.id AS dead_letter_id, a.at, a.actor, a.action, a.count
         FROM dead_letter_audit a JOIN unnest($1::uuid[]) AS d(id) ON a.dead_letter_ids @> ARRAY[d.id]
        ORDER BY a.at`,
      [deadLetterIds],
    );
    return rows.map((row: Record<string, any>) => ({
      deadLetterId: row.dead_letter_id,
      at: new Date(row.at),
      actor: row.actor,
      action: row.action,
      count: row.count,
    }));
  }
}
