import { SAGA_STATES, SagaFilter, SagaState } from '@app/saga';
import { malformed } from '@app/http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Query string → SagaFilter; a bad field is a 400 that names it. */
export function toSagaFilter(query: Record<string, unknown>): SagaFilter {
  const filter: SagaFilter = {};
  const text = (name: string, max: number): string | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string' || value.length > max) throw malformed(`${name} must be a string of at most ${max}`);
    return value;
  };
  const state = text('state', 16);
  if (state !== undefined) {
    if (!SAGA_STATES.includes(state as SagaState))
      throw malformed(`state must be one of ${SAGA_STATES.join(', ')}; got "${state}"`);
    filter.state = state as SagaState;
  }
  filter.type = text('type', 100);
  filter.correlationId = text('correlationId', 300);
  return filter;
}

/** A saga id from the path; a 400 when it is not a UUID. */
export function sagaId(id: string): string {
  if (!UUID.test(id)) throw malformed(`"${id.slice(0, 100)}" is not a saga id (a UUID)`);
  return id;
}
