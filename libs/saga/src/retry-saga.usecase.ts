import { OperatorAuditRepository } from '@app/audit';
import { DataSource } from 'typeorm';
import { SagaState } from './saga-definition';
import { operatorStep } from './operator-step';
import { SagasRepository } from './sagas.repository';

export type SagaRetryResult =
  | { outcome: 'scheduled'; sagaId: string; step: string }
  | { outcome: 'not-found' }
  /** Only a `failed` saga without a pending retry can be retried. */
  | { outcome: 'not-failed'; state: SagaState; retryPending: boolean };

/**
 * An operator's retry of a `failed` saga (`hookrail sagas retry`, `POST /admin/sagas/:id/retry`): its deadline
 * becomes now, a `retry-requested` history row and an `operator_audit` row name who asked. The coordinator's deadline
 * job then moves it back to `compensating` in the transaction that sends the compensation command again (same
 * idempotency key), with its compensation policy afresh, so the state still moves only together with its command.
 * Fix the cause first (a refused refund, a carrier that is down).
 */
export async function retryFailedSaga(dataSource: DataSource, sagaId: string, actor: string): Promise<SagaRetryResult> {
  return dataSource.transaction(async (manager) => {
    const scheduled = await SagasRepository.scheduleRetry(manager, sagaId);
    if (!scheduled) {
      const saga = await SagasRepository.findState(manager, sagaId);
      if (!saga) return { outcome: 'not-found' };
      return { outcome: 'not-failed', state: saga.state, retryPending: saga.state === 'failed' };
    }
    await SagasRepository.insertSteps(manager, [
      operatorStep(sagaId, scheduled, 'retry-requested', 'failed', `requested by ${actor}`),
    ]);
    await new OperatorAuditRepository(manager).record({
      actor,
      action: 'saga-retry',
      subjectType: 'saga',
      subjectId: sagaId,
      details: { step: scheduled.stepName },
      count: 1,
    });
    return { outcome: 'scheduled', sagaId, step: scheduled.stepName };
  });
}
