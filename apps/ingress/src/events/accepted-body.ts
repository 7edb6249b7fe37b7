import { RecordEventResult } from './usecases/record-event/record-event.usecase';

/** The answer to an accepted delivery: 202 `{id, duplicate:false, status_url}` or 200 `{id, duplicate:true}`. */
export function acceptedBody(result: RecordEventResult): { id: string; duplicate: boolean; status_url?: string } {
  return result.duplicate
    ? { id: result.id, duplicate: true }
    : { id: result.id, duplicate: false, status_url: `/events/${result.id}` };
}
