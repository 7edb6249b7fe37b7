export type ConsumerEventState = 'retrying' | 'dead' | 'processed' | 'parked';
export type BreakerState = 'closed' | 'open';
