import { AGENT_CHAOS } from './agent.checker';
import { ChaosGroup } from './chaos-group';
import { FULFILMENT_CHAOS } from './fulfilment.checker';
import { LEDGER_CHAOS } from './ledger.checker';
import { NOTIFIER_CHAOS } from './notifier.checker';
import { WEBHOOKS_CHAOS } from './webhooks.checker';

/** The consumer groups the chaos run drives and checks; a new group adds its checker file and one line here. */
export const CHAOS_GROUPS: readonly ChaosGroup[] = [
  LEDGER_CHAOS,
  NOTIFIER_CHAOS,
  AGENT_CHAOS,
  FULFILMENT_CHAOS,
  WEBHOOKS_CHAOS,
];
