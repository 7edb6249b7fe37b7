import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ConsumerMetrics } from './consumer-metrics';
import { KeyParking } from './parking/key-parking';
import { PartitionHolds } from './partition-holds';
import { GroupRetryHooks } from './retry-hooks';
import { DeadLetterStep, deadLetter } from './steps/dead-letter.middleware';
import { dedupe } from './steps/dedupe.middleware';
import { markProcessed } from './steps/event-status.middleware';
import { handle } from './steps/handle.middleware';
import { park } from './steps/park.middleware';
import { MessageReader, parse } from './steps/parse-and-validate.middleware';
import { HandledMessage } from './steps/message';
import { retrying, RetrySettings, RetryStepDeps } from './steps/retry.middleware';
import { settle } from './steps/settle.middleware';
import { Apply, Delivery, Outcome } from './steps/step';
import { timed } from './steps/timing.middleware';
import { traced } from './steps/trace.middleware';
import { ownTransaction } from './steps/transaction.middleware';

/** What a message's walk needs of its group around the attempts. */
export interface WalkDeps {
  group: string;
  metrics: ConsumerMetrics;
  retry: RetrySettings;
  hooks: RetryStepDeps['hooks'] & Pick<GroupRetryHooks, 'log'>;
  deadLetters: Pick<DeadLetterStep, 'giveUp'>;
  /** Where a partition waits while its first uncommitted message may not be tried yet. */
  holds: Pick<PartitionHolds, 'hold'>;
}

export interface PipelineDeps extends WalkDeps {
  /** The Kafka group id, which spans name (`group` unless a deployment namespaces it). */
  groupId?: string;
  dataSource: DataSource;
  logger: Logger;
  /** Per-key order through failures (`keyOrder: 'park'`); absent, no key is ever parked. */
  parking?: KeyParking;
  /** Runs after every database commit and before the offset commit (fault injection in crash tests). */
  afterDbCommit?: () => void;
}

/**
 * The steps of one message inside a transaction, in its process span when the process traces, in order: park (a parked key's message is stored behind it), mark
 * processed (a retried or replayed event's status row), timing, dedupe, and the handler. Shared by the batch's fast
 * path, which applies a run of messages in one transaction, and the one-message chain.
 */
export function transactionSteps(deps: PipelineDeps): Apply {
  return traced(deps.groupId ?? deps.group)(park(markProcessed(deps.group)(timed(deps)(dedupe(handle(deps))))));
}

/** The one-message chain: each attempt at a message is `apply` in a transaction of its own (ownTransaction). */
export function oneMessageChain(
  deps: PipelineDeps,
  read: MessageReader,
  apply: Apply,
): (delivery: Delivery) => Promise<boolean> {
  return walk(deps, read, ownTransaction(deps)(apply));
}

/**
 * One message's walk, composed once per group: parse (poison is given up on at once, ignored types are done), then
 * `attempt`, retried as the handler's policy says; a message given up on is dead-lettered (its key parked where the
 * group parks keys); what is left settles the partition: the offset may move (true), or the partition waits or the
 * consumer stops (false).
 */
export function walk(
  deps: WalkDeps,
  read: MessageReader,
  attempt: (handled: HandledMessage, attempt: number) => Promise<Outcome>,
): (delivery: Delivery) => Promise<boolean> {
  const retried = retrying(deps)(attempt);
  const parsed = parse({ read, hooks: deps.hooks })(retried);
  return settle(deps)(deadLetter(deps.deadLetters)(parsed));
}
