import { TrailEntry, TrailLevel, TrailSource } from '../trail';

interface SagaStepRow {
  saga_id: string;
  type: string;
  correlation_id: string;
  saga_state: string;
  seq: number;
  step: string;
  phase: string;
  event: string;
  state: string;
  cause_type: string | null;
  cause_id: string | null;
  sent_type: string | null;
  sent_id: string | null;
  detail: string | null;
  at: Date;
}

/**
 * The saga the event started (sagas.start_event_id: one per order for the order fulfilment saga) and each of its
 * transitions from `saga_steps`: the step and phase it concerns, what caused it, the command or outcome it sent and
 * the state after it, at the time the coordinator committed it. A `failed` saga waits for an operator's retry.
 */
export const sagaTrail: TrailSource = {
  name: 'saga',
  async entries(event, { db }) {
    const rows: SagaStepRow[] = await db.query(
      `SELECT s.id AS saga_id, s.type, s.correlation_id, s.state AS saga_state, h.seq, h.step, h.phase, h.event, h.state,
              h.cause_type, h.cause_id, h.sent_type, h.sent_id, h.detail, h.at
         FROM sagas s JOIN saga_steps h ON h.saga_id = s.id
        WHERE s.start_event_id = $1
        ORDER BY s.created_at, s.id, h.seq`,
      [event.id],
    );
    return rows.map((row): TrailEntry => ({
      at: new Date(row.at),
      step: `saga-${row.event}`,
      level: levelOf(row),
      summary: summaryOf(row),
      detail: {
        sagaId: row.saga_id,
        type: row.type,
        correlationId: row.correlation_id,
        seq: Number(row.seq),
        step: row.step,
        phase: row.phase,
        event: row.event,
        state: row.state,
        causeType: row.cause_type,
        causeId: row.cause_id,
        sentType: row.sent_type,
        sentId: row.sent_id,
        detail: row.detail,
        sagaState: row.saga_state,
      },
    }));
  },
};

function levelOf(row: SagaStepRow): TrailLevel {
  if (row.state === 'failed') return row.event === 'retry-requested' ? 'info' : 'error';
  if (row.state === 'completed') return 'ok';
  if (row.event === 'cancel-requested') return 'info';
  if (['failed', 'timed-out', 'cancelled'].includes(row.event) || ['compensated', 'cancelled'].includes(row.state))
    return 'warn';
  return row.event === 'succeeded' ? 'ok' : 'info';
}

/** "order-fulfilment saga: charge-card action failed on payments.card-charge-failed.v1 (declined); sent …; now compensating". */
function summaryOf(row: SagaStepRow): string {
  if (row.event === 'retry-requested')
    return `${row.type} saga: retry of ${row.step} ${row.detail ?? 'requested'}; its compensation is sent again`;
  if (row.event === 'cancel-requested')
    return `${row.type} saga: ${row.detail ?? 'cancel requested'} at ${row.step}; what it did is undone`;
  const cause = row.cause_type ? ` on ${row.cause_type}` : '';
  const why = row.detail ? ` (${row.detail})` : '';
  const sent = row.sent_type ? `; sent ${row.sent_type}` : '';
  return `${row.type} saga: ${row.step} ${row.phase} ${row.event}${cause}${why}${sent}; now ${row.state}`;
}
