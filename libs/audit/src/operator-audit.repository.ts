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

/** One audited action, once for each of the given rows it changed. */
export interface AuditedAction {
  affectedId: string;
  at: Date;
  actor: string;
  action: string;
  /** Rows the request changed in all. */
  count: number;
}

const COLUMNS = 'id, at, actor, action, subject_type, subject_id, details, count, affected_ids';

/**
 * The operator_audit statements: every operator action that changed something, whatever it acted on (dead letters,
 * parked keys, webhook endpoints, sagas). Record inside the transaction that made the change, so both commit or
 * neither.
 */
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
      `SELECT ${COLUMNS}
         FROM operator_audit
        WHERE subject_type = $1 AND subject_id = $2
        ORDER BY at DESC, id DESC
        LIMIT $3`,
      [subjectType, subjectId, limit],
    );
    return rows.map(toEntry);
  }

  /** Newest first, of every subject of one type. */
  async recentOf(subjectType: string, limit: number): Promise<OperatorAuditEntry[]> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT ${COLUMNS}
         FROM operator_audit
        WHERE subject_type = $1
        ORDER BY id DESC
        LIMIT $2`,
      [subjectType, limit],
    );
    return rows.map(toEntry);
  }

  /** The actions of one subject type that changed any of these rows, oldest first. */
  async actionsOn(subjectType: string, affectedIds: string[]): Promise<AuditedAction[]> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT r.id AS affected_id, a.at, a.actor, a.action, a.count
         FROM operator_audit a JOIN unnest($2::text[]) AS r(id) ON a.affected_ids @> ARRAY[r.id]
        WHERE a.subject_type = $1
        ORDER BY a.at`,
      [subjectType, affectedIds],
    );
    return rows.map((row) => ({
      affectedId: row.affected_id,
      at: new Date(row.at),
      actor: row.actor,
      action: row.action,
      count: row.count,
    }));
  }
}

function toEntry(row: Record<string, any>): OperatorAuditEntry {
  return {
    id: String(row.id),
    at: new Date(row.at),
    actor: row.actor,
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    details: row.details,
    count: row.count,
    affectedIds: row.affected_ids,
  };
}
