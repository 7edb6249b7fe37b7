export type { ConsumerService, GroupOwner } from './consumer-service';
import type { ConsumerGroupName } from '@app/contracts';
import type { ConsumerService } from './consumer-service';
import { AGENT_SERVICE } from './agent/agent.module';
import { ANALYTICS_SERVICE } from './analytics/analytics.module';
import { FULFILMENT_SERVICE } from './fulfilment/fulfilment.module';
import { INVENTORY_SERVICE } from './inventory/inventory.module';
import { LEDGER_SERVICE } from './ledger/ledger.module';
import { NOTIFIER_SERVICE } from './notifier/notifier.module';
import { PAYMENTS_SERVICE } from './payments/payments.module';
import { SHIPPING_SERVICE } from './shipping/shipping.module';
import { WEBHOOKS_SERVICE } from './webhooks/webhooks.module';

/**
 * The registry: one entry per name of CONSUMER_GROUPS (@app/contracts, the names every app and the CLI share). The
 * compiler refuses a name without its service and a service under an unknown name. The app module, the configuration,
 * the tables, the topics and the catalogue's groups all come from here.
 */
const SERVICES = {
  ledger: LEDGER_SERVICE,
  notifier: NOTIFIER_SERVICE,
  agent: AGENT_SERVICE,
  analytics: ANALYTICS_SERVICE,
  webhooks: WEBHOOKS_SERVICE,
  fulfilment: FULFILMENT_SERVICE,
  inventory: INVENTORY_SERVICE,
  payments: PAYMENTS_SERVICE,
  shipping: SHIPPING_SERVICE,
} as const satisfies { readonly [G in ConsumerGroupName]: ConsumerService };

/** The services this app can run, by group name. */
export const CONSUMER_SERVICES: Readonly<Record<string, ConsumerService>> = SERVICES;

type EnvOf<S> = S extends { env?: new () => infer E } ? (unknown extends E ? never : E) : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every group's own variables, as one type: what loadConsumersConfig returns besides the shared ones. */
export type GroupsEnv = Intersection<{ [G in ConsumerGroupName]: EnvOf<(typeof SERVICES)[G]> }[ConsumerGroupName]>;
