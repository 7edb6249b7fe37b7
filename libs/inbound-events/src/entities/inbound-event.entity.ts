import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

/** One accepted delivery. The unique (source, sender_event_id) pair is what makes duplicates free. */
@Entity('inbound_events')
@Unique('uq_inbound_events_source_sender_event_id', ['source', 'senderEventId'])
@Index('ix_inbound_events_received_at', ['receivedAt'])
@Index('ix_inbound_events_aggregate_id', ['aggregateId'])
export class InboundEventEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_inbound_events' })
  id: string;

  @Column('varchar', { length: 100 })
  source: string;

  @Column('varchar', { name: 'sender_event_id', length: 300 })
  senderEventId: string;

  @Column('varchar', { length: 300 })
  type: string;

  @Column('varchar', { name: 'aggregate_id', length: 300 })
  aggregateId: string;

  /** sha256 of the raw body, hex: tells a redelivery (same hash) from a conflicting reuse of an id. */
  @Column('char', { name: 'payload_hash', length: 64 })
  payloadHash: string;

  @Column('jsonb')
  payload: unknown;

  /** How the delivery was authenticated: the source's signature scheme, or `cloudevents` (producer token). */
  @Column('varchar', { length: 40, nullable: true })
  scheme: string | null;

  /** The request headers as received, without credentials and signatures (see received-headers.ts). */
  @Column('jsonb', { nullable: true })
  headers: Record<string, string> | null;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;
}
