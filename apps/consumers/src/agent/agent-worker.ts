import {
  ClaimedAgentTask,
  TaskFailure,
  claimAgentTask,
  claimAgentTasks,
  claimAgentTaskPastCeiling,
  completeAgentTask,
  failAgentTask,
  releaseAgentTask,
  renewAgentTaskLease,
  stateAfter,
} from '@app/agent-tasks';
import { dependencyOf, errorMessage, retryAfterOf } from '@app/consumer-runtime';
import { CloudEvent, OrderFieldsV1 } from '@app/contracts';
import { decideTaskFailure, giveUpEvent, LeaseKeeper, TaskRetrySettings } from '@app/tasks';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AgentMetrics } from './agent.metrics';
import { ClaimScope, ModelBreaker } from './model-breaker';
import { ModelAnswer, ModelClient } from './model.client';
import { readTriage, triagePrompt } from './order-triage.prompt';

/** A task whose lease kept running out (its worker died every time) used up its attempts without an answer. */
export class LeaseExpiredError extends Error {
  override name = 'LeaseExpiredError';
}

export interface AgentWorkerSettings extends TaskRetrySettings {
  leaseMs: number;
}

export interface AgentWorkerDeps {
  group: string;
  dataSource: DataSource;
  model: ModelClient;
  breaker: ModelBreaker;
  metrics: AgentMetrics;
  /** The sweep of dead tasks to `agent.dlt` (TaskDeadLetters#sweep): told when a task died. */
  deadLetters: { soon(): void };
  logger: Logger;
  settings: AgentWorkerSettings;
  /** The key of this process's lease-owner session, which claims carry (null while it reconnects). */
  leaseOwner(): number | null;
}

/**
 * Slow work never blocks a partition: the agent's kind of task, run by the task executor outside any Kafka partition.
 * The lease is held as every task's is (LeaseOwnerSession): the claim raises the fencing token and names this
 * process's lease owner; the lease is renewed while the model runs; the result is written only if the token is still
 * ours. A failure is `retryable` (the task `failed`, with a backoff) or `discarded` (the task `dead`, then
 * dead-lettered): `decideTaskFailure`, the verdict of every kind of task, discards at once when no retry can help,
 * after the last attempt, or for a down model after the retry ceiling. Every call's outcome
 * goes to the model's breaker, which decides what the slots may claim.
 */
export class AgentWorker {
  constructor(private readonly deps: AgentWorkerDeps) {}

  /**
   * Claims up to one task per worker id (a free slot each), the ones due longest. While the breaker is closed that is
   * one statement for all of them; while it is open each slot claims within what the breaker grants it (the probe, or
   * a task whose ceiling is spent), and a probe that found no task goes back.
   */
  async claim(workerIds: string[]): Promise<Array<{ task: ClaimedAgentTask; scope: ClaimScope }>> {
    const { dataSource, settings, breaker } = this.deps;
    const owner = this.deps.leaseOwner();
    if (!breaker.isOpen)
      return (await claimAgentTasks(dataSource, workerIds, settings.leaseMs, owner)).map((task) => ({
        task,
        scope: 'any',
      }));
    const claims: Array<{ task: ClaimedAgentTask; scope: ClaimScope }> = [];
    for (const workerId of workerIds) {
      const scope = breaker.claimScope();
      const task =
        scope === 'past-ceiling'
          ? await claimAgentTaskPastCeiling(dataSource, workerId, settings.leaseMs, settings.ceilingMs, owner)
          : await claimAgentTask(dataSource, workerId, settings.leaseMs, owner);
      if (!task) {
        if (scope === 'probe') breaker.probeUnused();
        break;
      }
      claims.push({ task, scope });
    }
    return claims;
  }

  /** Takes a task claimed within `scope` to its next state; `stopping` hands it back. */
  async run(task: ClaimedAgentTask, scope: ClaimScope, stopping: AbortSignal): Promise<void> {
    const workerId = task.claimedBy;
    const { dataSource, settings, metrics, logger, group, breaker } = this.deps;
    const log = logger.child({
      group,
      eventId: task.eventId,
      taskId: task.id,
      workerId,
      attempt: task.attempts,
      fencingToken: task.fencingToken,
      ...(scope !== 'any' && { claim: scope }),
    });
    if (task.priorState === 'claimed') {
      metrics.leaseExpiries.inc();
      log.warn({ previousWorker: task.priorClaimedBy }, 'lease ran out; task claimed again');
    }
    // Attempts that found the model down do not count: only a lease that keeps running out (or unknown errors) do.
    const counted = task.attempts - task.dependencyFailures;
    if (counted > settings.retry.maxAttempts) {
      if (scope === 'probe') breaker.probeUnused();
      await this.fail(
        task,
        new LeaseExpiredError(`the lease ran out on ${counted - 1} attempts without an answer`),
        log,
      );
      return;
    }

    const lease = new LeaseKeeper(
      () => renewAgentTaskLease(dataSource, task, settings.leaseMs),
      Math.max(100, Math.floor(settings.leaseMs / 3)),
      (error) => log.warn({ err: errorMessage(error) }, 'could not renew the lease; trying again'),
    ).start();
    let answer: ModelAnswer;
    try {
      answer = await this.callModel(task, AbortSignal.any([lease.signal, stopping]));
    } catch (error) {
      lease.stop();
      if (lease.lost) {
        metrics.fenced.inc({ operation: 'renew' });
        log.warn('the task was claimed by another worker while the model ran; attempt abandoned');
      } else if (stopping.aborted) {
        await releaseAgentTask(dataSource, task);
        metrics.attempts.inc({ outcome: 'released' });
        log.info('stopping: task handed back');
      } else {
        this.report(error, scope, workerId);
        await this.fail(task, error, log);
      }
      return;
    }
    lease.stop();
    breaker.answered();
    if (await completeAgentTask(dataSource, task, readTriage(answer))) {
      metrics.attempts.inc({ outcome: 'done' });
      log.info('agent task done');
    } else {
      metrics.fenced.inc({ operation: 'complete' });
      log.warn('stale worker: the task was claimed by another worker meanwhile; result discarded');
    }
  }

  /** The call's outcome for the breaker: the model down, or an answer (a refusal or anything else is one too). */
  private report(error: unknown, scope: ClaimScope, workerId: string): void {
    const dependency = dependencyOf(error);
    if (dependency)
      this.deps.breaker.unavailable({ error, dependency, retryAfterMs: retryAfterOf(error) }, scope, workerId);
    else this.deps.breaker.answered();
  }

  private async callModel(task: ClaimedAgentTask, signal: AbortSignal): Promise<ModelAnswer> {
    const stop = this.deps.metrics.modelSeconds.startTimer();
    try {
      const answer = await this.deps.model.complete(triagePrompt(task.event as CloudEvent<OrderFieldsV1>), signal);
      stop({ outcome: 'ok' });
      return answer;
    } catch (error) {
      stop({ outcome: 'error' });
      throw error;
    }
  }

  private async fail(task: ClaimedAgentTask, error: unknown, log: Logger): Promise<void> {
    const { settings, metrics } = this.deps;
    const failure = decideTaskFailure(task, error, settings);
    const dead = failure.verdict === 'discarded';
    if (!(await (dead ? this.markDead(task, failure) : failAgentTask(this.deps.dataSource, task, failure)))) {
      metrics.fenced.inc({ operation: 'fail' });
      log.warn(
        { err: failure.message },
        'stale worker: the task was claimed by another worker meanwhile; failure not recorded',
      );
      return;
    }
    metrics.attempts.inc({ outcome: stateAfter(failure) });
    log.warn(
      {
        errorClass: failure.errorClass,
        err: failure.message,
        ...(failure.dependency && { dependency: failure.dependency }),
        ...(dead
          ? { retriedForMs: Date.now() - (task.firstFailedAt?.getTime() ?? Date.now()) }
          : { retryInMs: failure.retryInMs }),
      },
      dead ? 'agent task dead' : 'agent task attempt failed; will retry',
    );
    if (dead) this.deps.deadLetters.soon();
  }

  /** `dead`, and in the same transaction its event is given up on as any dead-lettered event is. */
  private markDead(task: ClaimedAgentTask, failure: TaskFailure): Promise<boolean> {
    const { dataSource, group } = this.deps;
    return dataSource.transaction(async (manager) => {
      if (!(await failAgentTask(manager, task, failure))) return false;
      await giveUpEvent(manager, {
        group,
        eventId: task.eventId,
        attempts: task.attempts,
        lastError: `${failure.errorClass}: ${failure.message}`,
      });
      return true;
    });
  }
}
