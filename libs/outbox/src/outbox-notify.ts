/**
 * The channel the outbox trigger notifies once per inserting transaction (migration RelayLanesAndJobs). A relay
 * LISTENs on it to wake up at once; its poll fallback covers a lost notification.
 */
export const OUTBOX_CHANNEL = 'hookrail_outbox';
