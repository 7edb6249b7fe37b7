import { OperatorAuditRepository } from '@app/audit';
import { DataSource } from 'typeorm';
import { SagaState } from './saga-definition';
import { operatorStep } from './operator-step';
import { SagasRepository } from './sagas.repository';

export type SagaCancelResult =
  | { outcome: 'scheduled'; sagaId: string; step: string }
  | { outcome: 'not-found' }
  /** Only a `running` saga without a pending cancel can be cancelled. */
  | { outcome: 'not-running'; state: SagaState; cancelPending: boolean };

/** Longest reason an operator may give. */
export const CANCEL_REASON_MAX = 500;

/**
 * An operator's cancel of a `running` saga (`hookrail sagas cancel`, `POST /admin/sagas/:id/cancel`): the saga
 * records who asked and why, its deadline becomes now, and a `cancel-requested` history row and an `operator_audit`
 * row name who asked. The coordinator then compensates what the saga did, its current step included, in the
 * transaction that sends the first compensation (the deadline job, or a reply that comes first), and the saga ends
 * `cancelled` with its outcome event. A saga already compensating, ended or failed is not cancelled.
 */
export async function cancelRunningSaga(
  dataSource: DataSource,
  sagaId: string,
  actor: string,
  reason?: string,
): Promise<SagaCancelResult> {
  const cancellation = `cancelled by ${actor}${reason ? `: ${reason}` : ''}`;
  return dataSource.transaction(async (manager) => {
    const scheduled = await SagasRepository.requestCancel(manager, sagaId, cancellation);
    if (!scheduled) {
      const saga = await SagasRepository.findState(manager, sagaId);
      if (!saga) return { outcome: 'not-found' };
      return {
        outcome: 'not-running',
        state: saga.state,
        cancelPending: saga.state === 'running' && saga.cancellation !== null,
      };
    }
    await SagasRepository.insertSteps(manager, [
      operatorStep(sagaId, scheduled, 'cancel-requested', 'running', cancellation),
    ]);
    await new OperatorAuditRepository(manager).record({
      actor,
      action: 'saga-cancel',
      subjectType: 'saga',
      subjectId: sagaId,
      details: { step: scheduled.stepName, ...(reason && { reason }) },
      count: 1,
    });
    return { outcome: 'scheduled', sagaId, step: scheduled.stepName };
  });
}
