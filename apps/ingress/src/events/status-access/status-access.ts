import { Identity, visibleGroups } from '@app/access';
import { CLOUDEVENTS_SCHEME } from '../usecases/accept-cloudevent/producer-auth';

/**
 * Who asks for an event's status, once the bearer is checked: anyone (`EVENT_STATUS_ACCESS=public`), an internal
 * producer (a `PRODUCER_TOKENS` token), or a stored token (status, viewer, operator or admin).
 */
export type StatusReader =
  { kind: 'anyone' } | { kind: 'producer' } | { kind: 'token'; identity: Identity; bearer: string };

/** What a reader gets of one event: the full view (limited to `groups` unless null), the sender view, or nothing. */
export type StatusView = { view: 'full'; groups: string[] | null } | { view: 'sender' } | null;

/** Where an event came from: its source and how it was authenticated (`cloudevents`: a producer token). */
export interface EventOrigin {
  source: string;
  scheme: string | null;
}

export const MISSING_BEARER =
  'missing bearer token (Authorization: Bearer <token>, a producer token or a status, viewer, operator or admin token)';

/**
 * Whether the reader may see the event, and how much. null answers exactly like an unknown id, so that a token
 * cannot learn which ids exist.
 */
export function statusViewFor(reader: StatusReader, event: EventOrigin): StatusView {
  switch (reader.kind) {
    case 'anyone':
      return { view: 'full', groups: null };
    case 'producer':
      return event.scheme === CLOUDEVENTS_SCHEME ? { view: 'sender' } : null;
    case 'token': {
      const { identity } = reader;
      if (identity.role !== 'status') return { view: 'full', groups: visibleGroups(identity) };
      return identity.sources === null || identity.sources.includes(event.source) ? { view: 'sender' } : null;
    }
  }
}
