import { SagaHistoryEntry, SagaSummary, SagaViews } from '@app/saga';
import { TrailEntry, TrailLevel, TrailSource } from '../trail';

/**
 * The saga the event started (sagas.start_event_id: one per order for the order fulfilment saga) and each of its
 * transitions from `saga_steps`: the step and phase it concerns, what caused it, the command or outcome it sent and
 * the state after it, at the time the coordinator committed it. A `failed` saga waits for an operator's retry.
 */
export const sagaTrail: TrailSource = {
  name: 'saga',
  async entries(event, { db }) {
    const sagas = await SagaViews.startedBy(db, event.id);
    return sagas.flatMap((saga) =>
      saga.history.map((row): TrailEntry => ({
        at: row.at,
        step: `saga-${row.event}`,
        level: levelOf(row),
        summary: summaryOf(saga, row),
        detail: {
          sagaId: saga.id,
          type: saga.type,
          correlationId: saga.correlationId,
          seq: row.seq,
          step: row.step,
          phase: row.phase,
          event: row.event,
          state: row.state,
          causeType: row.causeType,
          causeId: row.causeId,
          sentType: row.sentType,
          sentId: row.sentId,
          detail: row.detail,
          sagaState: saga.state,
        },
      })),
    );
  },
};

function levelOf(row: SagaHistoryEntry): TrailLevel {
  if (row.state === 'failed') return row.event === 'retry-requested' ? 'info' : 'error';
  if (row.state === 'completed') return 'ok';
  if (row.event === 'cancel-requested') return 'info';
  if (['failed', 'timed-out', 'cancelled'].includes(row.event) || ['compensated', 'cancelled'].includes(row.state))
    return 'warn';
  return row.event === 'succeeded' ? 'ok' : 'info';
}

/** "order-fulfilment saga: charge-card action failed on payments.card-charge-failed.v1 (declined); sent …; now compensating". */
function summaryOf(saga: SagaSummary, row: SagaHistoryEntry): string {
  if (row.event === 'retry-requested')
    return `${saga.type} saga: retry of ${row.step} ${row.detail ?? 'requested'}; its compensation is sent again`;
  if (row.event === 'cancel-requested')
    return `${saga.type} saga: ${row.detail ?? 'cancel requested'} at ${row.step}; what it did is undone`;
  const cause = row.causeType ? ` on ${row.causeType}` : '';
  const why = row.detail ? ` (${row.detail})` : '';
  const sent = row.sentType ? `; sent ${row.sentType}` : '';
  return `${saga.type} saga: ${row.step} ${row.phase} ${row.event}${cause}${why}${sent}; now ${row.state}`;
}
