import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class BacklogRepository {
  /** Unpublished outbox rows, counted up to `cap` only: cheap however large the backlog is (partial index). */
  async countUnpublished(dataSource: DataSource, cap: number): Promise<number> {
    const rows: Array<{ n: string }> = await dataSource.query(
      `SELECT count(*) AS n FROM (SELECT 1 FROM outbox WHERE published_at IS NULL LIMIT $1) unpublished`,
      [cap],
    );
    return Number(rows[0].n);
  }
}
