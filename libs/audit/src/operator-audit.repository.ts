import { DataSource, EntityManager } from 'typeorm';

export interface OperatorAuditEntry {
  id: string;
  at: Date;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  details: Record<string, unknown>;
  count: number;
  affectedIds: string[];
}

export type NewOperatorAuditEntry = Omit<OperatorAuditEntry, 'id' | 'at' | 'affectedIds'> & { affectedIds?: string[] };

/** The operator_audit statements. Record inside the transaction that made the change, so both commit or neither. */
export class OperatorAuditRepository {
  constructor(private readonly db: DataSource | EntityManager) {}

  async record(entry: NewOperatorAuditEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO operator_audit (actor, action, subject_type, subject_id, details, count, affected_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[])`,
      [
        entry.actor,
        entry.action,
        entry.subjectType,
        entry.subjectId,
        JSON.stringify(entry.details),
        entry.count,
        entry.affectedIds ?? [],
      ],
    );
  }

  /** Newest first, of one subject. */
  async forSubject(subjectType: string, subjectId: string, limit: number): Promise<OperatorAuditEntry[]> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT id, at, actor, action, subject_type, subject_id, details, count, affected_ids
         FROM operator_audit
        WHERE subject_type = $1 AND subject_id = $2
        ORDER BY at DESC, id DESC
        LIMIT $3`,
      [subjectType, subjectId, limit],
    );
    return rows.map((row) => ({
      id: String(row.id),
      at: new Date(row.at),
      actor: row.actor,
      action: row.action,
      subjectType: row.subject_type,
      subjectId: row.subject_id,
      details: row.details,
      count: row.count,
      affectedIds: row.affected_ids,
    }));
  }
}
