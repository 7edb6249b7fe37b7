import { WrittenRows } from './pending-writes';
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
import { ParsedMessage } from './steps/message';
import { park } from './steps/park.middleware';
import { MessageReader, parse } from './steps/parse-and-validate.middleware';
import { retrying, RetrySettings, RetryStepDeps } from './steps/retry.middleware';
import { counted } from './steps/settle.middleware';
import { Apply, Attempt, Outcome, Walk } from './steps/step';
import { timed } from './steps/timing.middleware';
import { traced } from './steps/trace.middleware';

/** What a message's walk needs of its group around the attempts. */
export interface WalkDeps {
  group: string;
  metrics: ConsumerMetrics;
  retry: RetrySettings;
  hooks: RetryStepDeps['hooks'] & Pick<GroupRetryHooks, 'log'>;
  deadLetters: Pick<DeadLetterStep, 'giveUp'>;
}

export interface PipelineDeps extends WalkDeps {
  /** The Kafka group id, which spans name (`group` unless a deployment namespaces it). */
  groupId?: string;
  dataSource: DataSource;
  logger: Logger;
  /** Where a partition waits while its first uncommitted message may not be tried yet (the batch mode). */
  holds: Pick<PartitionHolds, 'hold'>;
  /** Per-key order through failures (`keyOrder: 'park'`); absent, no key is ever parked. */
  parking?: KeyParking;
  /** Runs after every database commit and before the offset commit (fault injection in crash tests). */
  afterDbCommit?: (written: WrittenRows) => void;
}

/**
 * One message's walk, composed once per group and the same in both modes: parse (poison is given up on at once,
 * ignored types are done), then `attempt`, retried as the handler's policy says; a message given up on is
 * dead-lettered (its key parked where the group parks keys); a message done is counted. The mode's settle step comes
 * last: the batch mode moves the offset or hands the partition back, the key mode finishes the record or holds its key.
 */
export function walk(deps: WalkDeps, read: MessageReader, attempt: Attempt<Outcome>): Walk {
  const retried = retrying(deps)(attempt);
  const parsed = parse({ read, hooks: deps.hooks })(retried);
  return counted(deps)(deadLetter(deps.deadLetters)(parsed));
}

/**
 * A message's effect inside its transaction, in both modes: park (a parked key's message is stored behind it), mark
 * processed (a retried or replayed event's status row), dedupe, then `effect`: the handler by batch, the rows its
 * handler queued before the transaction by key.
 */
export function effectSteps<T extends ParsedMessage>(group: string, effect: Apply<T>): Apply<T> {
  return park(markProcessed(group)(dedupe(effect)));
}

/**
 * The batch mode's steps of a message in a transaction, in its process span when the process traces: the effect
 * steps around the timed handler. Shared by the fast path, which applies a run of messages in one transaction, and
 * the one-message attempt.
 */
export function transactionSteps(deps: PipelineDeps): Apply {
  return traced(deps.groupId ?? deps.group)(effectSteps(deps.group, timed(deps)(handle(deps))));
}
