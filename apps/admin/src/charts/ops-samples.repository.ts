import { EntityManager } from 'typeorm';

export interface OpsSampleRow {
  metric: string;
  series: string;
  at: Date;
  value: number;
}

/** The ops_samples statements, one method each. */
export class OpsSamplesRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Writes one slot's points; a slot already written (by another ingress) is left as it is. */
  async insert(points: OpsSampleRow[]): Promise<number> {
    if (points.length === 0) return 0;
    const rows: unknown[] = await this.manager.query(
      `INSERT INTO ops_samples (metric, series, at, value)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::timestamptz[], $4::float8[])
       ON CONFLICT DO NOTHING RETURNING 1`,
      [
        points.map((point) => point.metric),
        points.map((point) => point.series),
        points.map((point) => point.at),
        points.map((point) => point.value),
      ],
    );
    return rows.length;
  }

  /** The end of the newest sampled slot, if any. */
  async latestSlot(): Promise<Date | undefined> {
    const [{ latest }]: Array<{ latest: Date | null }> = await this.manager.query(
      `SELECT max(at) AS latest FROM ops_samples`,
    );
    return latest ? new Date(latest) : undefined;
  }

  async deleteBefore(cutoff: Date): Promise<number> {
    const rows: unknown[] = await this.manager.query(`DELETE FROM ops_samples WHERE at < $1 RETURNING 1`, [cutoff]);
    return rows.length;
  }

  /** Every point of the last `minutes`, by metric, series and time. */
  async since(minutes: number): Promise<OpsSampleRow[]> {
    const rows: Array<{ metric: string; series: string; at: Date; value: number }> = await this.manager.query(
      `SELECT metric, series, at, value FROM ops_samples
        WHERE at > now() - $1 * interval '1 minute' ORDER BY metric, series, at`,
      [minutes],
    );
    return rows.map((row) => ({ ...row, at: new Date(row.at), value: Number(row.value) }));
  }
}
