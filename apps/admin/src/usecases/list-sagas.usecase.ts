import { Database } from '@app/db';
import { SagaState, SagaSummary, SagaViews } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { optionalPositiveInt } from './dead-letter-selection';
import { toSagaFilter } from './saga-query';

/** GET /admin/sagas: the matching sagas, failed first; their total; and how many are in each state. */
@Injectable()
export class ListSagasUseCase {
  constructor(private readonly database: Database) {}

  async execute(
    query: Record<string, unknown>,
  ): Promise<{ total: number; byState: Array<{ state: SagaState; count: number }>; items: SagaSummary[] }> {
    const filter = toSagaFilter(query);
    const limit = optionalPositiveInt(query, 'limit', 1000) ?? 100;
    const offset = optionalPositiveInt(query, 'offset', 1_000_000) ?? 0;
    const db = await this.database.connection();
    const [total, byState, items] = await Promise.all([
      SagaViews.count(db, filter),
      SagaViews.countByState(db),
      SagaViews.list(db, filter, limit, offset),
    ]);
    return { total, byState, items };
  }
}
