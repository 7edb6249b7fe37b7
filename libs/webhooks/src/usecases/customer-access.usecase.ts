import { OperatorAuditRepository } from '@app/audit';
import { DataSource } from 'typeorm';
import { CustomerTokenOwner, CustomerTokensRepository } from '../customers/customer-tokens.repository';
import {
  CUSTOMER_TOKEN_TTL,
  customerTokenHash,
  isCustomerTokenShaped,
  newCustomerToken,
} from '../customers/customer-token';
import { OpenSessionDto } from '../dtos/customer.dto';
import { validInput } from '../dtos/validate-input';
import { CustomerTokenRefusedError } from '../webhook-errors';
import { CUSTOMER_SUBJECT } from './manage-customers.usecase';

/** Who calls the customer API: the customer and the token it presented. */
export interface CustomerIdentity {
  customer: { id: string; uid: string; name: string };
  token: { id: string; name: string; kind: 'api' | 'session'; expiresAt: Date };
}

/** The audit's actor for a customer's change: `customer:<uid>/<token name>`. */
export function customerActor(identity: CustomerIdentity): string {
  return `customer:${identity.customer.uid}/${identity.token.name}`;
}

/**
 * A bearer token of the customer API, looked up on every request (no cache): an API token or a portal session that
 * is neither revoked nor expired. Anything else is refused with the reason.
 */
export async function authenticateCustomer(dataSource: DataSource, token: string): Promise<CustomerIdentity> {
  if (!isCustomerTokenShaped(token)) throw new CustomerTokenRefusedError('the bearer token is malformed (hrc_…)');
  const found = await new CustomerTokensRepository(dataSource).findByHash(customerTokenHash(token));
  if (!found) throw new CustomerTokenRefusedError('the bearer token is not valid');
  if (found.kind === 'portal-link')
    throw new CustomerTokenRefusedError(
      'a portal link is not a bearer token: exchange it at POST /customer/v1/sessions',
    );
  refuseDead(found, 'token');
  return {
    customer: found.customer,
    token: { id: found.id, name: found.name, kind: found.kind, expiresAt: found.expiresAt },
  };
}

/**
 * Exchanges a portal link for a session token valid for an hour: the link is marked used in the same statement that
 * checks it is live, so it opens one session only. A used, expired, revoked or unknown link is refused, naming which.
 * Audited.
 */
export async function openPortalSession(
  dataSource: DataSource,
  input: unknown,
): Promise<{ token: string; expiresAt: Date; customer: { uid: string; name: string } }> {
  const dto = validInput(OpenSessionDto, input ?? {});
  if (!isCustomerTokenShaped(dto.link)) throw new CustomerTokenRefusedError('the portal link is malformed');
  const hash = customerTokenHash(dto.link);
  const token = newCustomerToken();
  const expiresAt = new Date(Date.now() + CUSTOMER_TOKEN_TTL.sessionMs);
  const owner = await dataSource.transaction(async (manager) => {
    const tokens = new CustomerTokensRepository(manager);
    const link = await tokens.useLink(hash);
    if (!link) return undefined;
    const found = (await tokens.findByHash(hash))!;
    const name = found.name.replace(/^link-/, 'session-');
    await tokens.insert({
      customerId: link.customerId,
      kind: 'session',
      name,
      tokenHash: customerTokenHash(token),
      createdBy: `portal-link:${link.name}`,
      expiresAt,
    });
    await new OperatorAuditRepository(manager).record({
      actor: `customer:${found.customer.uid}/${link.name}`,
      action: 'session-opened',
      subjectType: CUSTOMER_SUBJECT,
      subjectId: link.customerId,
      details: { link: link.name, session: name, expiresAt: expiresAt.toISOString() },
      count: 1,
    });
    return found;
  });
  if (!owner) {
    const found = await new CustomerTokensRepository(dataSource).findByHash(hash);
    if (!found || found.kind !== 'portal-link') throw new CustomerTokenRefusedError('the portal link is not valid');
    if (found.usedAt) throw new CustomerTokenRefusedError(`the portal link was used at ${found.usedAt.toISOString()}`);
    refuseDead(found, 'portal link');
    throw new CustomerTokenRefusedError('the portal link is not valid');
  }
  return { token, expiresAt, customer: { uid: owner.customer.uid, name: owner.customer.name } };
}

function refuseDead(found: CustomerTokenOwner, what: string): void {
  if (found.revokedAt)
    throw new CustomerTokenRefusedError(`the ${what} was revoked at ${found.revokedAt.toISOString()}`);
  if (found.expiresAt.getTime() <= Date.now())
    throw new CustomerTokenRefusedError(`the ${what} expired at ${found.expiresAt.toISOString()}`);
}
