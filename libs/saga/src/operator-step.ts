import { SagaState } from './saga-definition';
import { SagaStepRow } from './sagas.repository';

/** What an operator asked for, as a history row (`phase` `operator`) at the version the request made. */
export function operatorStep(
  sagaId: string,
  scheduled: { version: number; stepName: string },
  event: 'retry-requested' | 'cancel-requested',
  state: SagaState,
  detail: string,
): SagaStepRow {
  return {
    sagaId,
    type: '',
    seq: scheduled.version,
    step: scheduled.stepName,
    phase: 'operator',
    event,
    state,
    causeType: null,
    causeId: null,
    sentType: null,
    sentId: null,
    detail,
  };
}
