import { Database } from '@app/db';
import { CANCEL_REASON_MAX, cancelRunningSaga } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { malformed, notFound, Problem } from '@app/http';
import { sagaId } from './saga-query';

/**
 * POST /admin/sagas/:id/cancel, body `{reason?}`: a `running` saga is cancelled by the coordinator at its next move
 * (what it did is undone, and it ends `cancelled`). 400 for a bad id or reason, 404 for no such saga, 409 for a saga
 * that is not running or has a cancel pending. Audited.
 */
@Injectable()
export class CancelSagaUseCase {
  constructor(private readonly database: Database) {}

  async execute(
    id: string,
    body: Record<string, unknown>,
    actor: string,
  ): Promise<{ id: string; cancel: 'scheduled'; step: string }> {
    const saga = sagaId(id);
    const unknown = Object.keys(body).filter((key) => key !== 'reason');
    if (unknown.length > 0) throw malformed(`unknown field ${unknown[0]}; the body takes only reason`);
    const reason = body.reason;
    if (reason !== undefined && (typeof reason !== 'string' || !reason.trim() || reason.length > CANCEL_REASON_MAX))
      throw malformed(`reason must be a string of 1 to ${CANCEL_REASON_MAX} characters`);
    const result = await cancelRunningSaga(await this.database.connection(), saga, actor, reason?.trim());
    if (result.outcome === 'not-found') throw notFound(`no saga with id ${id}`);
    if (result.outcome === 'not-running') {
      const why = result.cancelPending ? 'a cancel is already pending' : `it is ${result.state}`;
      throw new Problem(409, 'saga_not_running', `only a running saga can be cancelled; ${why}`, {
        state: result.state,
      });
    }
    return { id, cancel: 'scheduled', step: result.step };
  }
}
