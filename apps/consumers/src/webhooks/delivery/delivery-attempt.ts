import { GuardedHttpClient, PostFailedError, PostLimits, SsrfGuard, UrlRefusedError } from '@app/ssrf-guard';
import { decideTaskFailure } from '@app/tasks';
import { AttemptOutcome, AttemptResult, ClaimedDelivery } from '@app/webhooks';
import { postSpan } from './delivery-span';
import { RetrySchedule } from './retry-schedule';
import { InvalidSigningSecretError, WebhookSigner } from './webhook-signer';

/** Bytes of an answer kept in the delivery log. */
export const KEPT_RESPONSE_BYTES = 2048;

export interface DeliveryAttemptDeps {
  guard: SsrfGuard;
  client: GuardedHttpClient;
  signer: WebhookSigner;
  schedule: RetrySchedule;
  limits: Omit<PostLimits, 'keepResponseBytes'>;
  worker: string;
  /** Latency of every attempt that reached the endpoint, per endpoint. */
  observe(endpointId: string, seconds: number): void;
}

/**
 * One attempt of a claimed delivery: the URL checked again by the SSRF guard (its address pinned for the
 * connection), the body signed with every active secret, one POST with timeouts and a response cap, no redirect
 * followed. 2xx delivers; 410 disables the endpoint; anything else, a timeout or a refused URL is a failed attempt,
 * retryable on the schedule until the last (`decideTaskFailure`), then discarded. Undefined when the attempt was stopped by a shutdown (the caller hands
 * the delivery back).
 */
export class DeliveryAttempt {
  constructor(private readonly deps: DeliveryAttemptDeps) {}

  async run(delivery: ClaimedDelivery, signal: AbortSignal): Promise<AttemptOutcome | undefined> {
    const startedAt = new Date();
    const began = performance.now();
    const outcome = (result: Omit<Partial<AttemptOutcome>, 'result'> & { result?: AttemptResult }): AttemptOutcome => {
      // A failed attempt's verdict, as for every kind of task: retryable after the schedule's next wait, or discarded.
      // A delivered attempt needs none, nor the Error it is judged by (most attempts: the busy path).
      const failure =
        result.result === 'delivered'
          ? undefined
          : decideTaskFailure(
              { attempts: delivery.attempts, dependencyFailures: 0, firstFailedAt: null },
              new Error(result.error ?? 'failed'),
              { retry: this.deps.schedule.policy, ceilingMs: 0 },
            );
      return {
        deliveryId: delivery.id,
        endpointId: delivery.endpointId,
        eventId: delivery.eventId,
        fencingToken: delivery.fencingToken,
        attempt: delivery.attempts,
        startedAt,
        latencyMs: performance.now() - began,
        status: null,
        responseBody: null,
        error: null,
        worker: this.deps.worker,
        ...result,
        result: result.result ?? failure!.verdict,
        retryInMs: failure ? failure.retryInMs : null,
      };
    };

    // A delivery whose workers kept dying mid-attempt (each death shows in its log) stops after twice the schedule.
    if (delivery.attempts > 2 * this.deps.schedule.attempts)
      return outcome({ result: 'discarded', error: 'the lease ran out on every attempt; no worker finished one' });
    if (delivery.secrets.length === 0) return outcome({ error: 'the endpoint has no active signing secret' });

    let target;
    try {
      target = await this.deps.guard.check(delivery.url);
    } catch (error) {
      if (error instanceof UrlRefusedError) return outcome({ error: `URL refused: ${error.reason}` });
      throw error;
    }
    let headers;
    try {
      headers = this.deps.signer.headers(
        {
          id: delivery.eventId,
          producerId: delivery.producerEventId,
          type: delivery.eventType,
          source: delivery.eventSource,
          time: delivery.eventTime,
          subject: delivery.subject,
        },
        delivery.payload,
        delivery.secrets,
        new Date(),
      );
    } catch (error) {
      if (!(error instanceof InvalidSigningSecretError)) throw error;
      return outcome({
        error: `${error.message}; replace it: hookrail endpoints rotate-secret ${delivery.endpointId} --overlap 0`,
      });
    }
    try {
      const answer = await postSpan(delivery, target, headers, (sent) =>
        this.deps.client.post(
          target,
          sent,
          delivery.payload,
          { ...this.deps.limits, keepResponseBytes: KEPT_RESPONSE_BYTES },
          signal,
        ),
      );
      this.deps.observe(delivery.endpointId, answer.latencyMs / 1000);
      const common = { status: answer.status, responseBody: answer.body, latencyMs: answer.latencyMs };
      if (answer.status >= 200 && answer.status < 300) return outcome({ ...common, result: 'delivered' });
      if (answer.status === 410)
        return outcome({ ...common, result: 'gone', error: 'HTTP 410 Gone: the endpoint is disabled' });
      const redirect = answer.status >= 300 && answer.status < 400;
      return outcome({
        ...common,
        error: redirect
          ? `HTTP ${answer.status}: redirects are not followed${answer.location ? ` (to ${answer.location.slice(0, 300)})` : ''}`
          : `HTTP ${answer.status}`,
      });
    } catch (error) {
      if (error instanceof PostFailedError) {
        if (error.kind === 'aborted') return undefined;
        this.deps.observe(delivery.endpointId, error.latencyMs / 1000);
        return outcome({ error: `${error.kind}: ${error.message}`, latencyMs: error.latencyMs });
      }
      throw error;
    }
  }
}
