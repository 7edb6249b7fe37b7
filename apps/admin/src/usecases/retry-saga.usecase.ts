import { Database } from '@app/db';
import { retryFailedSaga } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { notFound, Problem } from '@app/http';
import { sagaId } from './saga-query';

/**
 * POST /admin/sagas/:id/retry: a `failed` saga's compensation is sent again by the coordinator's deadline job (fix
 * the cause first). 404 for no such saga, 409 for a saga that is not failed or has a retry pending.
 */
@Injectable()
export class RetrySagaUseCase {
  constructor(private readonly database: Database) {}

  async execute(id: string, actor: string): Promise<{ id: string; retry: 'scheduled'; step: string }> {
    const result = await retryFailedSaga(await this.database.connection(), sagaId(id), actor);
    if (result.outcome === 'not-found') throw notFound(`no saga with id ${id}`);
    if (result.outcome === 'not-failed') {
      const why = result.retryPending ? 'a retry is already pending' : `it is ${result.state}`;
      throw new Problem(409, 'saga_not_failed', `only a failed saga can be retried; ${why}`, { state: result.state });
    }
    return { id, retry: 'scheduled', step: result.step };
  }
}
