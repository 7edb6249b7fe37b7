import { ConsumerContext } from '@app/consumer-runtime';
import { SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { LOGGER } from '@app/logger';
import { toOutboxRow, writeOutboxRows } from '@app/outbox';
import {
  SagaCoordinator,
  SagaLocks,
  SagaMetrics,
  SagaRowMove,
  SagaReplyEvent,
  SagasRepository,
  SagaStepRow,
  SagaTransaction,
  SagaTransition,
} from '@app/saga';
import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { ConsumerServiceDeps, outboxLanesOf } from '../consumer-service.deps';
import { FULFILMENT_CANCELLATION_TYPES, ORDER_FULFILMENT, orderFulfilmentSaga } from './order-fulfilment.saga';
import { FulfilmentEnv } from './fulfilment.env';

/** The moves a consumer transaction queued, in one statement per round (SagasRepository.moveMany). */
const writeMoves = (manager: EntityManager, moves: SagaRowMove[]) => SagasRepository.moveMany(manager, moves);

/** The sagas a consumer transaction started, in one statement (queued on its SagaLocks, named once per saga here). */
const writeStarts = async (_manager: EntityManager, locks: SagaLocks[]) => {
  for (const each of new Set(locks)) await each.writeStarts();
};

/**
 * The fulfilment group's saga coordinator and what goes with it: history rows written once per consumer transaction,
 * the saga metrics, the relays woken after every commit, and the crash tests' fault injection.
 */
@Injectable()
export class FulfilmentSaga {
  readonly coordinator: SagaCoordinator;
  readonly metrics: SagaMetrics;
  /** One multi-row insert of the history rows a consumer transaction queued, counted as it commits. */
  private readonly writeHistory = async (manager: EntityManager, rows: SagaStepRow[]) => {
    await SagasRepository.insertSteps(manager, rows);
    this.metrics.count(rows);
    this.uncommittedTransitions += rows.length;
  };
  private uncommittedTransitions = 0;
  /** Each consumer transaction's saga locks (its manager is the transaction's). */
  private readonly locks = new WeakMap<EntityManager, SagaLocks>();
  private committedTransitions = 0;

  constructor(
    private readonly deps: ConsumerServiceDeps<FulfilmentEnv>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const { config, dataSource, metrics } = deps;
    const saga = orderFulfilmentSaga({
      timeoutsMs: {
        reserveStock: config.FULFILMENT_RESERVE_STOCK_TIMEOUT_MS,
        chargeCard: config.FULFILMENT_CHARGE_CARD_TIMEOUT_MS,
        createShipment: config.FULFILMENT_CREATE_SHIPMENT_TIMEOUT_MS,
      },
      stepRetries: config.FULFILMENT_STEP_RETRIES,
      compensationPolicy: {
        maxAttempts: config.FULFILMENT_COMPENSATION_ATTEMPTS,
        baseDelayMs: config.FULFILMENT_COMPENSATION_BACKOFF_MS,
        maxDelayMs: Math.max(config.FULFILMENT_COMPENSATION_MAX_BACKOFF_MS, config.FULFILMENT_COMPENSATION_BACKOFF_MS),
        ceilingMs: config.FULFILMENT_COMPENSATION_CEILING_MS,
      },
      topic: (name) => deps.topic(name),
    });
    this.coordinator = new SagaCoordinator([saga], logger);
    this.metrics = new SagaMetrics(metrics.registry, dataSource, [ORDER_FULFILMENT]);
    deps.afterCommit((written) => {
      deps.outboxNotifier.committed(outboxLanesOf(written));
      this.transitionsCommitted(this.uncommittedTransitions);
      this.uncommittedTransitions = 0;
    });
  }

  /**
   * The consumer's transaction as the coordinator's: its manager, moves, history rows and commands queued on it (one
   * statement each for the whole transaction), and every saga its batch of replies and cancellations moves locked in
   * one statement.
   */
  transaction(ctx: ConsumerContext): SagaTransaction {
    const { manager } = ctx;
    let locks = this.locks.get(manager);
    if (!locks) {
      const replyTypes = new Set(this.coordinator.replyTypes);
      const cancellations = new Set(FULFILMENT_CANCELLATION_TYPES);
      locks = new SagaLocks(manager, () => ({
        ids: ctx.batch
          .filter((event) => replyTypes.has(event.type))
          .map((event) => (event as SagaReplyEvent).data.sagaId),
        correlations: ctx.batch
          .filter((event) => cancellations.has(event.type) || event.type === SHOP_ORDER_PLACED_V1)
          .map((event) => ({ type: ORDER_FULFILMENT, correlationId: (event.data as { orderId: string }).orderId })),
      }));
      this.locks.set(manager, locks);
    }
    const saga = locks;
    return {
      manager,
      history: (row) => ctx.write(this.writeHistory, row),
      send: (message) => ctx.write(writeOutboxRows, toOutboxRow(message.topic, message.event)),
      lock: (id) => saga.lock(id),
      lockCorrelated: (type, correlationId) => saga.lockCorrelated(type, correlationId),
      move: (row, to) => ctx.write(writeMoves, saga.move(row, to)),
      insert: async (row) => {
        const queued = await saga.insert(row);
        if (queued) ctx.write(writeStarts, saga);
        return queued;
      },
    };
  }

  /** Logs a transition where an operator wants to see it (failures and compensations above debug). */
  log(transition: SagaTransition | undefined, fields: Record<string, unknown>): void {
    if (!transition) return;
    const line = { ...fields, ...transition };
    if (transition.state === 'failed')
      this.logger.warn(line, 'saga failed: a compensation did not succeed within its policy; an operator must look');
    else if (transition.event === 'cancelled') this.logger.info(line, 'saga cancelled');
    else if (transition.event === 'failed' || transition.event === 'timed-out')
      this.logger.info(line, 'saga step failed');
    else this.logger.debug(line, 'saga moved');
  }

  /** After the deadline job's commits: the relays, the metrics, the fault injection. */
  deadlineTransitionsCommitted(transitions: SagaTransition[]): void {
    if (transitions.length === 0) return;
    this.deps.outboxNotifier.committed();
    this.metrics.count(transitions);
    for (const transition of transitions) this.log(transition, { job: 'saga-deadlines' });
    this.transitionsCommitted(transitions.length);
  }

  /** Fault injection (HOOKRAIL_FAULT_KILL_AFTER_SAGA_TRANSITIONS): dies after the Nth committed transition. */
  private transitionsCommitted(count: number): void {
    const killAfter = this.deps.config.HOOKRAIL_FAULT_KILL_AFTER_SAGA_TRANSITIONS;
    if (count === 0 || killAfter <= 0) return;
    this.committedTransitions += count;
    if (this.committedTransitions < killAfter) return;
    this.logger.warn(
      { transitions: this.committedTransitions },
      'fault injection: killing the process after a committed saga transition, before the offset commit',
    );
    process.kill(process.pid, 'SIGKILL');
  }
}
