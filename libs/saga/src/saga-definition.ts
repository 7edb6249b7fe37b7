import type { RetryPolicy } from '@app/consumer-runtime';

/**
 * Where a saga is. `cancelled`: an outside event or an operator cancelled it while it ran, and what it had done was
 * undone. `failed`: a compensation kept failing past its policy; nothing moves until an operator retries it.
 */
export type SagaState = 'running' | 'compensating' | 'completed' | 'compensated' | 'cancelled' | 'failed';

export const SAGA_STATES: readonly SagaState[] = [
  'running',
  'compensating',
  'completed',
  'compensated',
  'cancelled',
  'failed',
];

/** The states a saga ends in (it has `ended_at`; retention may delete it). */
export const ENDED_SAGA_STATES: readonly SagaState[] = ['completed', 'compensated', 'cancelled'];

/** The states in which the saga waits for a reply and has a deadline. */
export const ACTIVE_SAGA_STATES: readonly SagaState[] = ['running', 'compensating'];

/** A step's action is `action`, its undo `compensation`. */
export type SagaPhase = 'action' | 'compensation';

/** What a command's data is built from: the saga's input and what earlier steps replied. */
export interface SagaView<D> {
  id: string;
  correlationId: string;
  data: D;
  /** Per step name: the data of its success reply, minus the saga fields. */
  results: Record<string, Record<string, unknown>>;
}

/** A command sent to a participant, and the replies that answer it. */
export interface SagaCommand<D> {
  /** The participant's command topic, as this deployment names it (namespace included). */
  topic: string;
  /** Versioned CloudEvents type, imperative: `payments.charge-card.v1`. */
  type: string;
  /** The command's data besides `sagaId`, `idempotencyKey` and `orderId`-like fields the definition adds. */
  data: (saga: SagaView<D>) => Record<string, unknown>;
  /** The reply type that means "done" (past tense: `payments.card-charged.v1`). */
  succeeded: string;
  /** Reply types that mean "could not be done, and nothing was done". */
  failed?: readonly string[];
}

export interface SagaStep<D> {
  /** Unique within the saga, kebab-case: `charge-card`. Part of the idempotency key, so never rename a live step. */
  name: string;
  action: SagaCommand<D>;
  /** Undoes the action. A step without one (a last, pivot step) is skipped when compensating. */
  compensation?: SagaCommand<D>;
  /**
   * How long a command of this step may go unanswered before it is sent again. Each step has its own: a local
   * reservation answers in milliseconds, a carrier's API may take seconds.
   */
  timeoutMs: number;
  /**
   * How often an unanswered action is sent again (same data, same idempotency key) before it is compensated. An
   * unanswered compensation follows the saga's CompensationPolicy instead.
   */
  retries: number;
}

/**
 * How a compensation that fails is tried again before the saga is `failed`, in the consumer runtime's terms. A refusal
 * (a failure reply) is like a `transient` failure: sent again after a backoff with full jitter (`baseDelayMs`,
 * doubling, at most `maxDelayMs`), up to `maxAttempts` refusals. Silence (no reply within the step's timeout) is like
 * a `dependency` failure: the participant or its provider cannot answer now; sent again at each timeout until
 * `ceilingMs` after the compensation first failed. Either limit spent: `failed`, and an operator is alerted.
 */
export interface CompensationPolicy extends RetryPolicy {
  ceilingMs: number;
}

export const DEFAULT_COMPENSATION_POLICY: CompensationPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  ceilingMs: 3_600_000,
};

/**
 * An outside event that cancels a running saga (a shop's order cancelled): the saga with the correlation id it names
 * compensates what it did, the current step included (its command may have been carried out), and ends `cancelled`.
 */
export interface SagaCancellation {
  /** The event's versioned type: `shop.order.cancelled.v1`. */
  type: string;
  /** The saga it is about, from the event's data: the order id. */
  correlationId: (data: any) => string;
  /** Why, for the history and the outcome; the event type when absent. */
  reason?: (data: any) => string | undefined;
}

/** An event published when the saga ends, so that other teams can react. */
export interface SagaOutcome<D> {
  topic: string;
  type: string;
  data: (saga: SagaView<D>, reason: string | null) => Record<string, unknown>;
}

export interface SagaDefinition<D = unknown> {
  /** Unique among the coordinator's sagas: `order-fulfilment`. One saga per (type, correlation id). */
  type: string;
  /** CloudEvents `source` of the commands and outcomes: `/sagas/order-fulfilment`. */
  source: string;
  /** Where participants send their replies (the coordinator consumes it), as this deployment names it. */
  replyTopic: string;
  steps: readonly SagaStep<D>[];
  /** Published in the transaction that makes the saga `completed`. */
  completed?: SagaOutcome<D>;
  /** Published in the transaction that makes the saga `compensated`, with the reason. */
  compensated?: SagaOutcome<D>;
  /** Published in the transaction that makes the saga `cancelled`, with who or what cancelled it. */
  cancelled?: SagaOutcome<D>;
  /** Outside events that cancel a running saga. */
  cancelledBy?: readonly SagaCancellation[];
  /** How failing compensations are tried again (DEFAULT_COMPENSATION_POLICY when absent). */
  compensationPolicy?: CompensationPolicy;
}

/** Which step, phase and outcome a reply type stands for in one definition. */
export interface ReplyRoute {
  step: number;
  phase: SagaPhase;
  outcome: 'succeeded' | 'failed';
}

/** A definition checked once, with its reply types indexed. */
export interface CompiledSaga<D = unknown> extends SagaDefinition<D> {
  route(replyType: string): ReplyRoute | undefined;
  /** Every reply type the saga listens to. */
  replyTypes: readonly string[];
  /** The cancellation an outside event of this type is, if it is one. */
  cancellation(eventType: string): SagaCancellation | undefined;
  compensationPolicy: CompensationPolicy;
}

const STEP_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/**
 * Checks a saga declaration and indexes its replies: at least one step, unique kebab-case step names, positive
 * timeouts, non-negative retries, every reply type belonging to exactly one step and phase (the reply type is how
 * the coordinator knows what a reply answers), cancelling event types that are not replies, and a sound
 * compensation policy.
 */
export function defineSaga<D>(definition: SagaDefinition<D>): CompiledSaga<D> {
  const fail = (message: string): never => {
    throw new Error(`saga ${definition.type}: ${message}`);
  };
  if (!STEP_NAME.test(definition.type)) fail('the type must be kebab-case');
  if (definition.steps.length === 0) fail('needs at least one step');
  const routes = new Map<string, ReplyRoute>();
  const names = new Set<string>();
  definition.steps.forEach((step, index) => {
    if (!STEP_NAME.test(step.name)) fail(`step name "${step.name}" must be kebab-case`);
    if (names.has(step.name)) fail(`two steps are named ${step.name}`);
    names.add(step.name);
    if (!(step.timeoutMs > 0)) fail(`step ${step.name} needs a positive timeoutMs`);
    if (!Number.isInteger(step.retries) || step.retries < 0) fail(`step ${step.name} needs retries ≥ 0`);
    const commands: Array<[SagaPhase, SagaCommand<D> | undefined]> = [
      ['action', step.action],
      ['compensation', step.compensation],
    ];
    for (const [phase, command] of commands) {
      if (!command) continue;
      const replies: Array<[string, ReplyRoute['outcome']]> = [
        [command.succeeded, 'succeeded'],
        ...(command.failed ?? []).map((type): [string, ReplyRoute['outcome']] => [type, 'failed']),
      ];
      for (const [type, outcome] of replies) {
        if (routes.has(type)) fail(`reply type ${type} answers two commands`);
        routes.set(type, { step: index, phase, outcome });
      }
    }
  });
  const cancellations = new Map<string, SagaCancellation>();
  for (const cancellation of definition.cancelledBy ?? []) {
    if (routes.has(cancellation.type)) fail(`${cancellation.type} is a reply type; it cannot also cancel the saga`);
    if (cancellations.has(cancellation.type)) fail(`${cancellation.type} is named twice in cancelledBy`);
    cancellations.set(cancellation.type, cancellation);
  }
  const policy = definition.compensationPolicy ?? DEFAULT_COMPENSATION_POLICY;
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    fail('compensationPolicy.maxAttempts must be ≥ 1');
  if (!(policy.baseDelayMs >= 0 && policy.maxDelayMs >= policy.baseDelayMs))
    fail('compensationPolicy needs 0 ≤ baseDelayMs ≤ maxDelayMs');
  if (!(policy.ceilingMs >= 0)) fail('compensationPolicy.ceilingMs must be ≥ 0');
  return {
    ...definition,
    route: (type) => routes.get(type),
    replyTypes: [...routes.keys()],
    cancellation: (type) => cancellations.get(type),
    compensationPolicy: policy,
  };
}

/** The idempotency key of a step's command: stable for the saga, the step and the direction, whatever the attempt. */
export function sagaIdempotencyKey(sagaId: string, stepName: string, phase: SagaPhase): string {
  return `${sagaId}:${stepName}:${phase}`;
}
