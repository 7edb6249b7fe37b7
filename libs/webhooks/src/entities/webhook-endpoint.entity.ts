import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PayloadFilter } from '../payload-filters';
import { EndpointState } from '../webhook-states';
import { WebhookCustomerEntity } from './webhook-customer.entity';

/**
 * A subscriber's URL and what it wants: event-type filters (exact, or a prefix ending in `.*`), whether deliveries
 * of one aggregate go one at a time in order, an optional rate limit. Disabled by an operator, by a 410 Gone, or
 * after failing every attempt for a configured period; a disabled endpoint's deliveries wait for it to be enabled.
 */
@Entity('webhook_endpoints')
@Index('ix_webhook_endpoints_customer', ['customerId'], { where: 'customer_id IS NOT NULL' })
@Index('ix_webhook_endpoints_operator', ['id'], { where: 'customer_id IS NULL' })
export class WebhookEndpointEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_webhook_endpoints' })
  id: string;

  /** The customer whose events it receives; null: the operator's, which receives every customer's. */
  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  @ManyToOne(() => WebhookCustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'fk_webhook_endpoints_customer' })
  customer?: WebhookCustomerEntity;

  /** Conditions on the event's data, all of which must hold (`[{path: '/shop/region', equals: 'eu'}]`); null: none. */
  @Column('jsonb', { name: 'payload_filters', nullable: true })
  payloadFilters: PayloadFilter[] | null;

  @Column('varchar', { length: 2000 })
  url: string;

  @Column('varchar', { length: 500, nullable: true })
  description: string | null;

  /** `shop.order.placed.v1` (exact), `shop.order.*` (prefix) or `*` (everything). */
  @Column('varchar', { name: 'event_types', length: 200, array: true })
  eventTypes: string[];

  @Column('varchar', { length: 16, default: 'enabled' })
  state: EndpointState;

  @Column('text', { name: 'disabled_reason', nullable: true })
  disabledReason: string | null;

  @Column('timestamptz', { name: 'disabled_at', nullable: true })
  disabledAt: Date | null;

  /** Deliveries of one aggregate (the event's subject) go one at a time, in order, retries included. */
  @Column('boolean', { default: false })
  ordered: boolean;

  /** Most deliveries started per second; null for no limit. */
  @Column('integer', { name: 'rate_limit_per_second', nullable: true })
  rateLimitPerSecond: number | null;

  /** The rate limit's token bucket, spent by the claim statement (negative when concurrent claims overdrew it). */
  @Column('double precision', { name: 'rate_tokens', default: 0 })
  rateTokens: number;

  @Column('timestamptz', { name: 'rate_refilled_at', default: () => 'now()' })
  rateRefilledAt: Date;

  /** Deliveries in flight at once; null for the configured default. */
  @Column('integer', { name: 'max_in_flight', nullable: true })
  maxInFlight: number | null;

  /** Since when every attempt failed; null after any success. The auto-disable clock. */
  @Column('timestamptz', { name: 'failing_since', nullable: true })
  failingSince: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
