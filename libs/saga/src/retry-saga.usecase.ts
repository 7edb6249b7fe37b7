import { DataSource } from 'typeorm';
import { SagaState } from './saga-definition';
import { SagasRepository } from './sagas.repository';

export type SagaRetryResult =
  | { outcome: 'scheduled'; sagaId: string; step: string }
  | { outcome: 'not-found' }
  /** Only a `failed` saga without a pending retry can be retried. */
  | { outcome: 'not-failed'; state: SagaState; retryPending: boolean };

/**
 * An operator's retry of a `failed` saga (`hookrail sagas retry`, `POST /admin/sagas/:id/retry`): its deadline
 * becomes now and a `retry-requested` history row names who asked. The coordinator's deadline job then moves it back
 * to `compensating` in the transaction that sends the compensation command again (same idempotency key), so the
 * state still moves only together with its command. Fix the cause first (a refused refund, a carrier that is down).
 */
export async function retryFailedSaga(dataSource: DataSource, sagaId: string, actor: string): Promise<SagaRetryResult> {
  return dataSource.transaction(async (manager) => {
    const scheduled = await SagasRepository.scheduleRetry(manager, sagaId);
    if (!scheduled) {
      const rows: Array<{ state: SagaState; deadline: Date | null }> = await manager.query(
        `SELECT state, deadline FROM sagas WHERE id = $1`,
        [sagaId],
      );
      if (!rows[0]) return { outcome: 'not-found' };
      return { outcome: 'not-failed', state: rows[0].state, retryPending: rows[0].state === 'failed' };
    }
    await SagasRepository.insertSteps(manager, [
      {
        sagaId,
        type: '',
        seq: scheduled.version,
        step: scheduled.stepName,
        phase: 'operator',
        event: 'retry-requested',
        state: 'failed',
        causeType: null,
        causeId: null,
        sentType: null,
        sentId: null,
        detail: `requested by ${actor}`,
      },
    ]);
    return { outcome: 'scheduled', sagaId, step: scheduled.stepName };
  });
}
