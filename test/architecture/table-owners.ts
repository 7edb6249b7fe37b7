/**
 * Who runs SQL on each table. Only a table's owner names it in a statement; other code calls the owner's exported
 * methods (`table-owners.spec.ts` checks it, in `npm test`). Migrations, tests and their fixtures are exempt.
 *
 * A new table: its owner here (and in docs/architecture.md, Tables). A new statement on another package's table:
 * a method in the owner's repository instead. An exception: an entry in `ALLOWED`, with the reason.
 */

export interface TableOwner {
  /** The package that owns the table: `libs/<name>` or `apps/<name>`. */
  package: string;
  /** Its files that run SQL on the table, in that package, relative to the package. */
  files: readonly string[];
}

export const TABLE_OWNERS: Readonly<Record<string, TableOwner>> = {
  inbound_events: { package: 'libs/inbound-events', files: ['src/inbound-event.repository.ts'] },
  outbox: { package: 'libs/outbox', files: ['src/outbox.repository.ts'] },
  job_heartbeats: {
    package: 'libs/jobs',
    files: ['src/job-heartbeat.repository.ts', 'src/job-schedule.repository.ts'],
  },
  job_schedules: { package: 'libs/jobs', files: ['src/job-schedule.repository.ts'] },
  processed_events: {
    package: 'libs/consumer-runtime',
    files: ['src/processed-events.repository.ts', 'src/consumer-event-status.repository.ts'],
  },
  consumer_event_status: { package: 'libs/consumer-runtime', files: ['src/consumer-event-status.repository.ts'] },
  dependency_breakers: { package: 'libs/consumer-runtime', files: ['src/breaker/dependency-breakers.repository.ts'] },
  consumer_group_owners: {
    package: 'libs/consumer-runtime',
    files: ['src/owners/consumer-group-owners.repository.ts'],
  },
  dead_letters: {
    package: 'libs/dead-letters',
    files: [
      'src/dead-letters.repository.ts',
      'src/parking/parked-events.repository.ts',
      'src/parking/parked-keys.repository.ts',
    ],
  },
  parked_keys: { package: 'libs/dead-letters', files: ['src/parking/parked-keys.repository.ts'] },
  operator_audit: { package: 'libs/audit', files: ['src/operator-audit.repository.ts'] },
  operator_tokens: { package: 'libs/access', files: ['src/operator-tokens.repository.ts'] },
  ops_samples: { package: 'apps/admin', files: ['src/charts/ops-samples.repository.ts'] },
  source_rejections: { package: 'libs/rejections', files: ['src/source-rejections.repository.ts'] },
  ledger_entries: { package: 'apps/consumers', files: ['src/ledger/ledger-entries.repository.ts'] },
  notifications: { package: 'apps/consumers', files: ['src/notifier/notifications.repository.ts'] },
  analytics_daily_totals: { package: 'apps/consumers', files: ['src/analytics/daily-totals.repository.ts'] },
  agent_tasks: {
    package: 'libs/agent-tasks',
    files: [
      'src/agent-task-status.repository.ts',
      'src/agent-task-trail.repository.ts',
      'src/agent-tasks.repository.ts',
      'src/dead-agent-tasks.ts',
      'src/find-agent-task.ts',
    ],
  },
  webhook_customers: {
    package: 'libs/webhooks',
    // The fan-out finds the event's customer by its uid; a customer token is found with its customer's uid and name.
    files: [
      'src/deliveries/fan-out.repository.ts',
      'src/customers/webhook-customers.repository.ts',
      'src/customers/customer-tokens.repository.ts',
    ],
  },
  customer_tokens: { package: 'libs/webhooks', files: ['src/customers/customer-tokens.repository.ts'] },
  webhook_endpoints: {
    package: 'libs/webhooks',
    files: [
      'src/endpoints/webhook-endpoints.repository.ts',
      // A customer's count of endpoints; a test delivery is written for one (of the caller's) endpoint.
      'src/customers/webhook-customers.repository.ts',
      'src/deliveries/test-delivery.repository.ts',
      // A customer's delivery log is limited to its endpoints in each statement.
      'src/deliveries/delivery-log.repository.ts',
      // The delivery queue's statements read endpoints (state, caps, rate bucket, failing clock) in the same statement.
      'src/deliveries/dead-deliveries.ts',
      'src/deliveries/deliveries-retention.repository.ts',
      'src/deliveries/deliveries.repository.ts',
      'src/deliveries/delivery-status.repository.ts',
      'src/deliveries/delivery-trail.repository.ts',
      'src/deliveries/fan-out.repository.ts',
      'src/deliveries/outcomes.repository.ts',
    ],
  },
  webhook_endpoint_secrets: {
    package: 'libs/webhooks',
    files: ['src/endpoints/webhook-endpoints.repository.ts', 'src/deliveries/deliveries.repository.ts'],
  },
  webhook_deliveries: {
    package: 'libs/webhooks',
    files: [
      'src/deliveries/dead-deliveries.ts',
      'src/deliveries/deliveries-retention.repository.ts',
      'src/deliveries/deliveries.repository.ts',
      'src/deliveries/delivery-log.repository.ts',
      'src/deliveries/delivery-status.repository.ts',
      'src/deliveries/delivery-trail.repository.ts',
      'src/deliveries/fan-out.repository.ts',
      'src/deliveries/gone-owners.repository.ts',
      'src/deliveries/outcomes.repository.ts',
      'src/deliveries/test-delivery.repository.ts',
      'src/endpoints/webhook-endpoints.repository.ts',
    ],
  },
  webhook_delivery_attempts: {
    package: 'libs/webhooks',
    files: [
      'src/deliveries/deliveries.repository.ts',
      'src/deliveries/delivery-log.repository.ts',
      'src/deliveries/delivery-trail.repository.ts',
      'src/deliveries/gone-owners.repository.ts',
      'src/deliveries/outcomes.repository.ts',
    ],
  },
  sagas: { package: 'libs/saga', files: ['src/sagas.repository.ts', 'src/saga-views.ts'] },
  saga_steps: { package: 'libs/saga', files: ['src/sagas.repository.ts', 'src/saga-views.ts'] },
  stock: { package: 'apps/consumers', files: ['src/inventory/stock.repository.ts'] },
  stock_reservations: { package: 'apps/consumers', files: ['src/inventory/stock.repository.ts'] },
  payments: { package: 'apps/consumers', files: ['src/payments/payments.repository.ts'] },
  shipments: { package: 'apps/consumers', files: ['src/shipping/shipments.repository.ts'] },
  // TypeORM's migration runner writes it; hookrail only reads which migrations ran.
  typeorm_migrations: { package: 'libs/db', files: ['src/schema-status.ts'] },
};

/**
 * `join`: a read of another package's table inside a statement on the file's own, where a call cannot replace it.
 * `benchmark`: a benchmark's measurement (a latency join across tables, a count) or set-up that no product code
 * needs. `expression`: a clause that names
 * its table through `${…}`, which the check cannot resolve.
 */
export type AllowanceKind = 'join' | 'benchmark' | 'expression';

export interface Allowance {
  kind: AllowanceKind;
  /** Relative to the repository root. */
  file: string;
  table: string;
  /** `read`: only FROM, JOIN or USING of the table; `write`: any statement. */
  access: 'read' | 'write';
  because: string;
}

const MEASURES = 'measures it across tables (latency joins, counts) as no product statement does';

const SEEDS_CUSTOMERS = 'seeds 10,000 customers and their endpoints in one statement each, as no product code does';

export const ALLOWED: readonly Allowance[] = [
  ...['webhook_customers', 'webhook_endpoints'].map((table): Allowance => ({
    kind: 'benchmark',
    file: 'bench/webhooks/customers-phase.ts',
    table,
    access: 'write',
    because: SEEDS_CUSTOMERS,
  })),
  {
    kind: 'join',
    file: 'libs/dead-letters/src/dead-letters.repository.ts',
    table: 'processed_events',
    access: 'read',
    because:
      "resolveReplayed: a replayed dead letter is resolved by its group's dedupe row, in one UPDATE … FROM " +
      'processed_events; libs/consumer-runtime imports libs/dead-letters, so the reverse call would be a cycle',
  },
  {
    kind: 'join',
    file: 'libs/dead-letters/src/parking/parked-keys.repository.ts',
    table: 'processed_events',
    access: 'read',
    because:
      "lockHead and dueKeys: whether a parked key's head is applied, read by the statement that locks or picks the " +
      'key (the same import direction as above)',
  },
  ...[
    ['bench/agent/agent.bench.ts', 'agent_tasks'],
    ['bench/consumers/consumers.bench.ts', 'ledger_entries'],
    ['bench/consumers/consumers.bench.ts', 'processed_events'],
    ['bench/e2e/e2e.bench.ts', 'inbound_events'],
    ['bench/e2e/e2e.bench.ts', 'ledger_entries'],
    ['bench/e2e/e2e.bench.ts', 'processed_events'],
    ['bench/failover/failover.bench.ts', 'outbox'],
    ['bench/ingress/ingress.bench.ts', 'inbound_events'],
    ['bench/ingress/ingress.bench.ts', 'outbox'],
    ['bench/saga/bulk-hops.ts', 'outbox'],
    ['bench/saga/bulk-hops.ts', 'processed_events'],
    ['bench/saga/hop-cost.ts', 'outbox'],
    ['bench/saga/saga.bench.ts', 'inbound_events'],
    ['bench/saga/saga.bench.ts', 'processed_events'],
    ['bench/saga/saga.bench.ts', 'sagas'],
    ['bench/soak/soak-stats.ts', 'inbound_events'],
    ['bench/soak/soak-stats.ts', 'processed_events'],
    ['bench/webhooks/webhooks.bench.ts', 'inbound_events'],
    ['bench/webhooks/webhooks.bench.ts', 'webhook_deliveries'],
    ['bench/webhooks/webhooks.bench.ts', 'webhook_delivery_attempts'],
  ].map(([file, table]): Allowance => ({ kind: 'benchmark', file, table, access: 'read', because: MEASURES })),
  {
    kind: 'benchmark',
    file: 'bench/relay/relay.bench.ts',
    table: 'outbox',
    access: 'write',
    because: `empties the table between phases (TRUNCATE) and ${MEASURES}`,
  },
  {
    kind: 'expression',
    file: 'libs/outbox/src/outbox.repository.ts',
    table: '${…}',
    access: 'read',
    because:
      "insertOutboxRowFrom and insertOutboxRowsFrom read the caller's CTE (the inbound-events insert), not a table",
  },
];
