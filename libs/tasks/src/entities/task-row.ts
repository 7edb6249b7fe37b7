import { Column } from 'typeorm';

/**
 * The one shape of a durable task table, whatever its kind (`agent_tasks`, `webhook_deliveries`): what the task was
 * made from (the event, where it was consumed, the replay it came back with), its state, and what the claim works
 * with: attempts, when it is next due (`next_attempt_at`: now when waiting, the backoff's end after a failure, the
 * lease's end while held, `infinity` once final, so one ordered index serves every claim), the lease (its end, its
 * holder, the process that owns it: one lease model, LeaseOwnerSession), the fencing token every claim raises, the
 * last error, and when its dead letter was acknowledged. A kind's entity extends it with its own columns, its id (for
 * its constraint's name), its state words and its indexes.
 */
export abstract class TaskRow<State extends string = string> {
  /** The CloudEvent's id: one task per event (per endpoint, for deliveries). */
  @Column('varchar', { name: 'event_id', length: 300 })
  eventId: string;

  @Column('varchar', { name: 'event_type', length: 300 })
  eventType: string;

  /** Where the event was consumed: its dead letter names them. */
  @Column('varchar', { name: 'source_topic', length: 300 })
  sourceTopic: string;

  @Column('integer', { name: 'source_partition' })
  sourcePartition: number;

  @Column('varchar', { name: 'source_offset', length: 30 })
  sourceOffset: string;

  /** Times an operator sent it again (a replayed dead letter, an endpoint replay). */
  @Column('integer', { name: 'replay_count', default: 0 })
  replayCount: number;

  @Column('varchar', { length: 16, default: 'pending' })
  state: State;

  /** Claims so far, the current one included. */
  @Column('integer', { default: 0 })
  attempts: number;

  @Column('timestamptz', { name: 'next_attempt_at', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;

  @Column('varchar', { name: 'claimed_by', length: 200, nullable: true })
  claimedBy: string | null;

  /**
   * The claiming process's lease-owner key (the backend pid of its LeaseOwnerSession, which holds an advisory lock on
   * it): once that session is gone, another process takes the task over without waiting for `lease_until`.
   */
  @Column('integer', { name: 'lease_owner', nullable: true })
  leaseOwner: number | null;

  /** Raised by every claim; a worker writes only while the row still carries the token its claim returned. */
  @Column('bigint', { name: 'fencing_token', default: 0 })
  fencingToken: string;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  /** Set once the broker acknowledged its dead letter; a dead row without it is still to be dead-lettered. */
  @Column('timestamptz', { name: 'dead_lettered_at', nullable: true })
  deadLetteredAt: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
