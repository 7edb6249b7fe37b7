export type ConsumerEventState = 'retrying' | 'dead' | 'processed' | 'parked';
export type BreakerState = 'closed' | 'open';

/**
 * How a group works through a partition. `batch` (the default): one record at a time, runs of records applied in one
 * transaction; for groups whose work is local to the database. `key`: records of different keys at the same time,
 * each key in offset order, handlers run before the transaction and their writes committed together; for groups
 * whose handlers wait on a provider.
 */
export type Concurrency = 'batch' | 'key';
