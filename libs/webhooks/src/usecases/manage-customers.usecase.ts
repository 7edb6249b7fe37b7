import { parseExpiry, TokenInputError } from '@app/access';
import { OperatorAuditRepository } from '@app/audit';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { CustomerToken, CustomerTokensRepository } from '../customers/customer-tokens.repository';
import { CUSTOMER_TOKEN_TTL, customerTokenHash, newCustomerToken } from '../customers/customer-token';
import { WebhookCustomersRepository, WebhookCustomerView } from '../customers/webhook-customers.repository';
import { CreateCustomerDto, CreateCustomerTokenDto, CreatePortalLinkDto } from '../dtos/customer.dto';
import { validInput } from '../dtos/validate-input';
import { WebhookConflictError, WebhookInputError, WebhookNotFoundError } from '../webhook-errors';

export const CUSTOMER_SUBJECT = 'webhook-customer';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A customer token as the operator lists it: never the token or its digest. */
export type CustomerTokenView = Omit<CustomerToken, 'customerId' | 'usedAt'> & {
  state: 'live' | 'revoked' | 'expired';
};

/** Creates a customer (409 when its uid is taken). Audited. */
export async function createCustomer(
  dataSource: DataSource,
  input: unknown,
  actor: string,
): Promise<WebhookCustomerView> {
  const dto = validInput(CreateCustomerDto, input);
  const id = randomUUID();
  await dataSource.transaction(async (manager) => {
    if (!(await new WebhookCustomersRepository(manager).insert({ id, uid: dto.uid, name: dto.name })))
      throw new WebhookConflictError(`a customer with uid "${dto.uid}" exists already`);
    await audit(manager, actor, 'create', id, { uid: dto.uid, name: dto.name });
  });
  return (await new WebhookCustomersRepository(dataSource).find({ id }))!;
}

export function listCustomers(dataSource: DataSource): Promise<WebhookCustomerView[]> {
  return new WebhookCustomersRepository(dataSource).list();
}

/** By its id or its uid; 404 naming it otherwise. */
export async function showCustomer(dataSource: DataSource, ref: string): Promise<WebhookCustomerView> {
  const found = await new WebhookCustomersRepository(dataSource).find(UUID.test(ref) ? { id: ref } : { uid: ref });
  if (!found)
    throw new WebhookNotFoundError(`no customer with ${UUID.test(ref) ? 'id' : 'uid'} "${ref.slice(0, 200)}"`);
  return found;
}

/** The customer, its endpoints (with their deliveries) and its tokens. Audited (the audit row stays). */
export async function deleteCustomer(
  dataSource: DataSource,
  ref: string,
  actor: string,
): Promise<{ deleted: string; endpoints: number }> {
  const customer = await showCustomer(dataSource, ref);
  await dataSource.transaction(async (manager) => {
    if (!(await new WebhookCustomersRepository(manager).delete(customer.id)))
      throw new WebhookNotFoundError(`no customer with id "${customer.id}"`);
    await audit(manager, actor, 'delete', customer.id, { uid: customer.uid, endpoints: customer.endpoints });
  });
  return { deleted: customer.id, endpoints: customer.endpoints };
}

/**
 * An API token for the customer API, `hrc_…`, returned this once (only its digest is kept): 90 days unless `expires`
 * says otherwise, a year at most. 409 while a live token of the customer has that name. Audited (never the token).
 */
export async function issueCustomerToken(
  dataSource: DataSource,
  ref: string,
  input: unknown,
  actor: string,
): Promise<{ token: string; name: string; expiresAt: Date }> {
  const dto = validInput(CreateCustomerTokenDto, input ?? {});
  const customer = await showCustomer(dataSource, ref);
  const now = new Date();
  const expiresAt = dto.expires ? expiry(dto.expires, now) : new Date(now.getTime() + CUSTOMER_TOKEN_TTL.apiDefaultMs);
  if (expiresAt.getTime() > now.getTime() + CUSTOMER_TOKEN_TTL.apiMaxMs)
    throw new WebhookInputError(`expires "${dto.expires}" is more than a year ahead`);
  const token = newCustomerToken();
  await dataSource.transaction(async (manager) => {
    const tokens = new CustomerTokensRepository(manager);
    if (await tokens.liveApiToken(customer.id, dto.name))
      throw new WebhookConflictError(`customer "${customer.uid}" has a live token named "${dto.name}" already`);
    await tokens.insert({
      customerId: customer.id,
      kind: 'api',
      name: dto.name,
      tokenHash: customerTokenHash(token),
      createdBy: actor,
      expiresAt,
    });
    await audit(manager, actor, 'token-created', customer.id, { name: dto.name, expiresAt: expiresAt.toISOString() });
  });
  return { token, name: dto.name, expiresAt };
}

/** The customer's API tokens, newest first, with their state. */
export async function listCustomerTokens(
  dataSource: DataSource,
  ref: string,
  now = new Date(),
): Promise<CustomerTokenView[]> {
  const customer = await showCustomer(dataSource, ref);
  const tokens = await new CustomerTokensRepository(dataSource).list(customer.id, 'api');
  return tokens.map(({ customerId: _customer, usedAt: _used, ...token }) => ({
    ...token,
    state: token.revokedAt ? 'revoked' : token.expiresAt <= now ? 'expired' : 'live',
  }));
}

/** Refused from the next request on. 404 when the customer has no live token of that name. Audited. */
export async function revokeCustomerToken(
  dataSource: DataSource,
  ref: string,
  name: string,
  actor: string,
): Promise<{ revoked: string }> {
  const customer = await showCustomer(dataSource, ref);
  await dataSource.transaction(async (manager) => {
    if ((await new CustomerTokensRepository(manager).revokeApiToken(customer.id, name, actor)) === 0)
      throw new WebhookNotFoundError(`customer "${customer.uid}" has no live token named "${name.slice(0, 100)}"`);
    await audit(manager, actor, 'token-revoked', customer.id, { name });
  });
  return { revoked: name };
}

/**
 * A single-use portal link: `${portalUrl}/portal#link=<token>`, live for `expiresInMinutes` (15 unless told, at most
 * 60); exchanging it opens an hour's session. Audited (never the token).
 */
export async function createPortalLink(
  dataSource: DataSource,
  ref: string,
  input: unknown,
  portalUrl: string,
  actor: string,
): Promise<{ url: string; expiresAt: Date }> {
  const dto = validInput(CreatePortalLinkDto, input ?? {});
  const customer = await showCustomer(dataSource, ref);
  const token = newCustomerToken();
  const name = `link-${randomBytes(4).toString('hex')}`;
  const expiresAt = new Date(Date.now() + dto.expiresInMinutes * 60_000);
  await dataSource.transaction(async (manager) => {
    await new CustomerTokensRepository(manager).insert({
      customerId: customer.id,
      kind: 'portal-link',
      name,
      tokenHash: customerTokenHash(token),
      createdBy: actor,
      expiresAt,
    });
    await audit(manager, actor, 'portal-link-created', customer.id, { name, expiresAt: expiresAt.toISOString() });
  });
  return { url: `${portalUrl.replace(/\/+$/, '')}/portal#link=${token}`, expiresAt };
}

function expiry(value: string, now: Date): Date {
  try {
    return parseExpiry(value, now);
  } catch (error) {
    if (error instanceof TokenInputError) throw new WebhookInputError(`expires: ${error.message}`);
    throw error;
  }
}

function audit(
  manager: EntityManager,
  actor: string,
  action: string,
  customerId: string,
  details: Record<string, unknown>,
): Promise<void> {
  return new OperatorAuditRepository(manager).record({
    actor,
    action,
    subjectType: CUSTOMER_SUBJECT,
    subjectId: customerId,
    details,
    count: 1,
  });
}
