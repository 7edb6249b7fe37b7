import { OperatorAuditEntry, OperatorAuditRepository } from '@app/audit';
import { parseTime } from '@app/dead-letters';
import { DeliveryDetail, DeliveryLogRepository, DeliverySummary } from '../deliveries/delivery-log.repository';
import { ListDeliveriesQuery, ReplayDeliveriesDto } from '../dtos/delivery.dto';
import { validInput } from '../dtos/validate-input';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { WebhookConflictError, WebhookInputError, WebhookNotFoundError } from '../webhook-errors';
import { checkedId, ENDPOINT_SUBJECT, WebhookAdminContext } from './manage-endpoints.usecase';

/** An endpoint's deliveries, newest first, by status, event type and creation time. */
export async function listDeliveries(
  context: WebhookAdminContext,
  endpointId: string,
  query: unknown,
): Promise<DeliverySummary[]> {
  await existing(context, endpointId);
  const dto = validInput(ListDeliveriesQuery, query ?? {});
  return new DeliveryLogRepository(context.dataSource, context.customerId).list(
    endpointId,
    {
      status: dto.status,
      eventType: dto.eventType,
      since: time('since', dto.since),
      until: time('until', dto.until),
    },
    dto.limit,
  );
}

/** One delivery with its payload and every attempt (time, status, latency, first 2 KB of the answer, error). */
export async function showDelivery(
  { dataSource, customerId }: WebhookAdminContext,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryDetail> {
  checkedId(endpointId);
  const found = /^\d{1,18}$/.test(deliveryId)
    ? await new DeliveryLogRepository(dataSource, customerId).find(endpointId, deliveryId)
    : undefined;
  if (!found) throw new WebhookNotFoundError(`endpoint ${endpointId} has no delivery ${deliveryId.slice(0, 40)}`);
  return found;
}

export interface ReplayResult {
  dryRun: boolean;
  /** Deliveries the request selected. */
  matched: number;
  /** Ids queued again (none in a dry run). */
  replayed: string[];
  /** In a dry run: what would be sent again. */
  candidates?: DeliverySummary[];
}

/**
 * Sends one delivery again, with the same `webhook-id` (the event id), so a receiver that dedupes sees it once: a
 * delivered or failed one at once, one in flight once its attempt is recorded; 409 while it is pending (it goes
 * anyway, and a retry sends it now). Audited.
 */
export async function replayDelivery(
  context: WebhookAdminContext,
  endpointId: string,
  deliveryId: string,
  actor: string,
): Promise<ReplayResult> {
  const delivery = await showDelivery(context, endpointId, deliveryId);
  if (delivery.state === 'pending') {
    const due = delivery.nextAttemptAt ? ` (its next attempt is due at ${isoSeconds(delivery.nextAttemptAt)})` : '';
    throw new WebhookConflictError(
      `delivery ${deliveryId} is pending${due}: it is already queued; retry it to send it now`,
    );
  }
  return requeue(context, endpointId, [deliveryId], actor, { deliveryId });
}

export interface RetryNowResult {
  id: string;
  state: 'pending';
  /** Attempts so far: the next one is attempt + 1, and the retry schedule goes on from there. */
  attempts: number;
  nextAttemptAt: Date;
}

/**
 * Sends a delivery that waits for its next attempt (the retry schedule may put it minutes or hours after a failure)
 * now: due at once, its attempts and schedule as they were. 409 while an attempt is in flight, once it is delivered
 * or failed (a replay sends those again), and while its endpoint is disabled (enabling sends them all). Audited.
 */
export async function retryDeliveryNow(
  context: WebhookAdminContext,
  endpointId: string,
  deliveryId: string,
  actor: string,
): Promise<RetryNowResult> {
  const endpoint = await existing(context, endpointId);
  const delivery = await showDelivery(context, endpointId, deliveryId);
  if (delivery.state === 'sending')
    throw new WebhookConflictError(`delivery ${deliveryId} is sending: an attempt is in flight`);
  if (delivery.state !== 'pending')
    throw new WebhookConflictError(`delivery ${deliveryId} is ${delivery.state}; replay it to send it again`);
  if (endpoint.state !== 'enabled')
    throw new WebhookConflictError(
      `endpoint ${endpointId} is disabled: its deliveries wait until it is enabled, which sends them at once`,
    );
  const due = await context.dataSource.transaction(async (manager) => {
    const changed = await new DeliveryLogRepository(manager, context.customerId).dueNow(endpointId, deliveryId);
    if (changed)
      await new OperatorAuditRepository(manager).record({
        actor,
        action: 'retry',
        subjectType: ENDPOINT_SUBJECT,
        subjectId: endpointId,
        details: { deliveryId, wasDueAt: delivery.nextAttemptAt?.toISOString() ?? null },
        count: 1,
        affectedIds: [deliveryId],
      });
    return changed;
  });
  if (!due) throw new WebhookConflictError(`delivery ${deliveryId} is no longer pending`);
  return { id: deliveryId, state: 'pending', ...due };
}

/** `2026-12-01T17:30:00Z`: a time as the messages give it. */
function isoSeconds(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * "We were down last night, send everything again": every delivery of the endpoint created in [since, until) that
 * ended (delivered or failed; only those of `status` when given) or is in flight, oldest first, at most `limit`;
 * they go in that order. `dryRun` lists them and changes nothing (and is not audited).
 */
export async function replayDeliveries(
  context: WebhookAdminContext,
  endpointId: string,
  input: unknown,
  actor: string,
): Promise<ReplayResult> {
  const endpoint = await existing(context, endpointId);
  const dto = validInput(ReplayDeliveriesDto, input ?? {});
  const since = time('since', dto.since)!;
  const until = time('until', dto.until);
  const candidates = await new DeliveryLogRepository(context.dataSource, context.customerId).replayableBetween(
    endpoint.id,
    since,
    until,
    dto.status,
    dto.limit,
  );
  if (dto.dryRun) return { dryRun: true, matched: candidates.length, replayed: [], candidates };
  const details = { since: since.toISOString(), until: until?.toISOString(), status: dto.status, limit: dto.limit };
  return {
    ...(await requeue(
      context,
      endpointId,
      candidates.map((delivery) => delivery.id),
      actor,
      details,
    )),
    matched: candidates.length,
  };
}

/** The endpoint's audit trail, newest first. */
export async function endpointAudit(
  context: WebhookAdminContext,
  endpointId: string,
  limit: number,
): Promise<OperatorAuditEntry[]> {
  await existing(context, endpointId);
  return new OperatorAuditRepository(context.dataSource).forSubject(ENDPOINT_SUBJECT, endpointId, limit);
}

async function requeue(
  { dataSource, customerId }: WebhookAdminContext,
  endpointId: string,
  ids: string[],
  actor: string,
  details: Record<string, unknown>,
): Promise<ReplayResult> {
  const replayed = await dataSource.transaction(async (manager) => {
    const queued = await new DeliveryLogRepository(manager, customerId).requeue(endpointId, ids);
    if (queued.length > 0)
      await new OperatorAuditRepository(manager).record({
        actor,
        action: 'replay',
        subjectType: ENDPOINT_SUBJECT,
        subjectId: endpointId,
        details,
        count: queued.length,
        affectedIds: queued,
      });
    return queued;
  });
  return { dryRun: false, matched: ids.length, replayed };
}

async function existing({ dataSource, customerId }: WebhookAdminContext, endpointId: string) {
  const endpoint = await new WebhookEndpointsRepository(dataSource, customerId).find(checkedId(endpointId));
  if (!endpoint) throw new WebhookNotFoundError(`no webhook endpoint with id ${endpointId}`);
  return endpoint;
}

function time(name: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = parseTime(value);
  if (!parsed)
    throw new WebhookInputError(`${name} "${value}" is neither an ISO time nor a duration like 30m, 6h or 2d`);
  return parsed;
}
