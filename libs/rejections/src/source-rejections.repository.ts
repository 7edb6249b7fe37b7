import { QueryRows } from '@app/db';

export interface SourceRejection {
  id: string;
  source: string;
  receivedAt: Date;
  status: number;
  reason: string;
  message: string;
  path: string;
  headers: Record<string, string>;
  bodyBytes: number;
  bodyPrefix: string;
  details: Record<string, unknown> | null;
}

export type NewSourceRejection = Omit<SourceRejection, 'id'>;

/** Rejections kept for one source, counted by reason. */
export interface SourceRejectionCount {
  source: string;
  reason: string;
  count: number;
  lastAt: Date;
}

/** The source_rejections statements, one method each. */
export class SourceRejectionsRepository {
  constructor(private readonly rows: QueryRows) {}

  /** All of them in one statement. */
  async insertMany(rejections: readonly NewSourceRejection[]): Promise<void> {
    if (rejections.length === 0) return;
    const column = <K extends keyof NewSourceRejection>(key: K) => rejections.map((rejection) => rejection[key]);
    await this.rows(
      `INSERT INTO source_rejections
         (source, received_at, status, reason, message, path, headers, body_bytes, body_prefix, details)
       SELECT * FROM unnest($1::varchar[], $2::timestamptz[], $3::smallint[], $4::varchar[], $5::varchar[],
                            $6::varchar[], $7::jsonb[], $8::integer[], $9::text[], $10::jsonb[])`,
      [
        column('source'),
        column('receivedAt'),
        column('status'),
        column('reason'),
        column('message'),
        column('path'),
        rejections.map((rejection) => JSON.stringify(rejection.headers)),
        column('bodyBytes'),
        column('bodyPrefix'),
        rejections.map((rejection) => (rejection.details ? JSON.stringify(rejection.details) : null)),
      ],
    );
  }

  /** Deletes all but the newest `keep` rows of each of `sources`; the number deleted. */
  async keepNewest(sources: readonly string[], keep: number): Promise<number> {
    const deleted = await this.rows<{ id: string }>(
      `DELETE FROM source_rejections r
        USING (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY source ORDER BY id DESC) AS n
                                 FROM source_rejections WHERE source = ANY($1::varchar[])) ranked
                WHERE n > $2) old
        WHERE r.id = old.id
       RETURNING r.id`,
      [sources, keep],
    );
    return deleted.length;
  }

  /** The newest first. */
  async forSource(source: string, limit: number): Promise<SourceRejection[]> {
    const rows = await this.rows<Record<string, any>>(
      `SELECT id, source, received_at, status, reason, message, path, headers, body_bytes, body_prefix, details
         FROM source_rejections WHERE source = $1 ORDER BY id DESC LIMIT $2`,
      [source, limit],
    );
    return rows.map((row) => ({
      id: String(row.id),
      source: row.source,
      receivedAt: new Date(row.received_at),
      status: row.status,
      reason: row.reason,
      message: row.message,
      path: row.path,
      headers: row.headers,
      bodyBytes: row.body_bytes,
      bodyPrefix: row.body_prefix,
      details: row.details,
    }));
  }

  /** How many are kept per source and reason, and the latest of each. */
  async countByReason(): Promise<SourceRejectionCount[]> {
    const rows = await this.rows<{ source: string; reason: string; count: number; last_at: Date }>(
      `SELECT source, reason, count(*)::int AS count, max(received_at) AS last_at
         FROM source_rejections GROUP BY source, reason ORDER BY source, reason`,
    );
    return rows.map((row) => ({
      source: row.source,
      reason: row.reason,
      count: row.count,
      lastAt: new Date(row.last_at),
    }));
  }
}
