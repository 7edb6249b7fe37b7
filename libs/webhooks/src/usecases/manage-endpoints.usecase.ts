import { OperatorAuditRepository } from '@app/audit';
import { SsrfGuard } from '@app/ssrf-guard';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WebhookCustomersRepository } from '../customers/webhook-customers.repository';
import {
  CreateWebhookEndpointDto,
  CustomerEndpointDto,
  DisableWebhookEndpointDto,
  RotateWebhookSecretDto,
  UpdateEndpointDto,
} from '../dtos/endpoint.dto';
import { parsePayloadFilters } from '../payload-filters';
import { validInput } from '../dtos/validate-input';
import {
  EndpointChanges,
  WebhookEndpointsRepository,
  WebhookEndpointView,
} from '../endpoints/webhook-endpoints.repository';
import { WebhookConflictError, WebhookInputError, WebhookNotFoundError } from '../webhook-errors';
import { newWebhookSecret } from '../webhook-secret';

export const ENDPOINT_SUBJECT = 'webhook-endpoint';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What management needs: the database and the SSRF guard configured for this process; for the customer API, the
 * customer's id, which scopes every statement to its endpoints (another's are not found).
 */
export interface WebhookAdminContext {
  dataSource: DataSource;
  guard: SsrfGuard;
  customerId?: string;
}

/** An endpoint and the secret it signs with, shown this once and never again. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointView;
  secret: string;
}

/**
 * Creates an endpoint: the input checked (400 naming the field), the URL through the SSRF guard (400 with the
 * reason), then the endpoint, its first secret and the audit row in one transaction. A customer's (the context's,
 * or the operator's `customerId`, which must exist) receives that customer's events only.
 */
export async function createWebhookEndpoint(
  { dataSource, guard, customerId: caller }: WebhookAdminContext,
  input: unknown,
  actor: string,
): Promise<EndpointWithSecret> {
  const dto: CreateWebhookEndpointDto = caller
    ? validInput(CustomerEndpointDto, input)
    : validInput(CreateWebhookEndpointDto, input);
  const payloadFilters = parsePayloadFilters(dto.payloadFilters);
  await guard.checkNew(dto.url);
  const customerId = caller ?? dto.customerId ?? null;
  const id = randomUUID();
  const secret = newWebhookSecret();
  await dataSource.transaction(async (manager) => {
    if (customerId && !(await new WebhookCustomersRepository(manager).keep(customerId)))
      throw new WebhookInputError(`customerId: no customer with id ${customerId}`);
    const endpoints = new WebhookEndpointsRepository(manager, caller);
    await endpoints.insert({
      id,
      customerId,
      payloadFilters,
      url: dto.url,
      description: dto.description ?? null,
      eventTypes: [...new Set(dto.eventTypes)],
      ordered: dto.ordered ?? false,
      rateLimitPerSecond: dto.rateLimitPerSecond ?? null,
      maxInFlight: dto.maxInFlight ?? null,
    });
    await endpoints.addSecret(id, randomUUID(), secret);
    await new OperatorAuditRepository(manager).record({
      actor,
      action: 'create',
      subjectType: ENDPOINT_SUBJECT,
      subjectId: id,
      details: { ...dto },
      count: 1,
    });
  });
  return { endpoint: (await new WebhookEndpointsRepository(dataSource, caller).find(id))!, secret };
}

export async function listWebhookEndpoints({
  dataSource,
  customerId,
}: WebhookAdminContext): Promise<WebhookEndpointView[]> {
  return new WebhookEndpointsRepository(dataSource, customerId).list();
}

export async function showWebhookEndpoint(
  { dataSource, customerId }: WebhookAdminContext,
  id: string,
): Promise<WebhookEndpointView> {
  return (await new WebhookEndpointsRepository(dataSource, customerId).find(checkedId(id))) ?? notFound(id);
}

/**
 * Changes the fields given (`url`, `eventTypes`, `description`, `payloadFilters`); a new URL goes through the SSRF
 * guard. Audited.
 */
export async function updateWebhookEndpoint(
  context: WebhookAdminContext,
  id: string,
  input: unknown,
  actor: string,
): Promise<WebhookEndpointView> {
  const dto = validInput(UpdateEndpointDto, input ?? {});
  const payloadFilters = dto.payloadFilters === undefined ? undefined : parsePayloadFilters(dto.payloadFilters);
  if (Object.keys(dto).length === 0)
    throw new WebhookInputError('nothing to change: give url, eventTypes, description or payloadFilters');
  if (dto.url !== undefined) await context.guard.checkNew(dto.url);
  const changes: EndpointChanges = {
    url: dto.url,
    description: dto.description,
    eventTypes: dto.eventTypes && [...new Set(dto.eventTypes)],
    payloadFilters,
  };
  return change(context, id, actor, 'update', { ...changes }, async (endpoints) => {
    await endpoints.update(id, changes);
  });
}

/**
 * enabled → disabled: its deliveries, and those of the events that arrive meanwhile, wait. 409 when it is already
 * disabled. Audited.
 */
export async function disableWebhookEndpoint(
  context: WebhookAdminContext,
  id: string,
  input: unknown,
  actor: string,
): Promise<WebhookEndpointView> {
  const dto = validInput(DisableWebhookEndpointDto, input ?? {});
  const reason = `disabled by ${actor}${dto.reason ? `: ${dto.reason}` : ''}`;
  return change(context, id, actor, 'disable', { ...dto }, async (endpoints) => {
    if (!(await endpoints.disable(id, reason))) throw new WebhookConflictError(`endpoint ${id} is already disabled`);
  });
}

/** disabled → enabled: the deliveries that waited go now, in order. 409 when it is already enabled. Audited. */
export async function enableWebhookEndpoint(
  context: WebhookAdminContext,
  id: string,
  actor: string,
): Promise<WebhookEndpointView> {
  return change(context, id, actor, 'enable', {}, async (endpoints) => {
    if (!(await endpoints.enable(id))) throw new WebhookConflictError(`endpoint ${id} is already enabled`);
  });
}

/**
 * A new secret that signs from now on, beside the current ones until `overlapSeconds` have passed (0: they stop at
 * once). Returns the new secret, this once. Audited (without the secret).
 */
export async function rotateWebhookSecret(
  context: WebhookAdminContext,
  id: string,
  input: unknown,
  actor: string,
): Promise<EndpointWithSecret> {
  const dto = validInput(RotateWebhookSecretDto, input ?? {});
  const secret = newWebhookSecret();
  const endpoint = await change(context, id, actor, 'rotate-secret', { ...dto }, async (endpoints) => {
    await endpoints.expireSecrets(id, dto.overlapSeconds);
    await endpoints.addSecret(id, randomUUID(), secret);
  });
  return { endpoint, secret };
}

/** The endpoint with its secrets, deliveries and their attempts. Audited (the audit row stays). */
export async function deleteWebhookEndpoint(
  { dataSource, customerId }: WebhookAdminContext,
  id: string,
  actor: string,
): Promise<{ deleted: string }> {
  checkedId(id);
  await dataSource.transaction(async (manager) => {
    const endpoints = new WebhookEndpointsRepository(manager, customerId);
    const endpoint = (await endpoints.lock(id)) ?? notFound(id);
    await endpoints.delete(id);
    await new OperatorAuditRepository(manager).record({
      actor,
      action: 'delete',
      subjectType: ENDPOINT_SUBJECT,
      subjectId: id,
      details: { url: endpoint.url },
      count: 1,
    });
  });
  return { deleted: id };
}

async function change(
  { dataSource, customerId }: WebhookAdminContext,
  id: string,
  actor: string,
  action: string,
  details: Record<string, unknown>,
  work: (endpoints: WebhookEndpointsRepository) => Promise<void>,
): Promise<WebhookEndpointView> {
  checkedId(id);
  await dataSource.transaction(async (manager) => {
    const endpoints = new WebhookEndpointsRepository(manager, customerId);
    (await endpoints.lock(id)) ?? notFound(id);
    await work(endpoints);
    await new OperatorAuditRepository(manager).record({
      actor,
      action,
      subjectType: ENDPOINT_SUBJECT,
      subjectId: id,
      details,
      count: 1,
    });
  });
  return (await new WebhookEndpointsRepository(dataSource, customerId).find(id))!;
}

export function checkedId(id: string): string {
  if (!UUID.test(id)) throw new WebhookNotFoundError(`"${id.slice(0, 100)}" is not an endpoint id (a UUID)`);
  return id;
}

function notFound(id: string): never {
  throw new WebhookNotFoundError(`no webhook endpoint with id ${id}`);
}
