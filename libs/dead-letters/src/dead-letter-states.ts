export const DEAD_LETTER_STATUSES = ['dead', 'replaying', 'resolved', 'purged', 'parked'] as const;
export type DeadLetterStatus = (typeof DEAD_LETTER_STATUSES)[number];
export type DeadLetterAction = 'replay' | 'purge';
