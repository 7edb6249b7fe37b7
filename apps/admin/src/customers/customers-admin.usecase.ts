import { Database } from '@app/db';
import {
  createCustomer,
  createPortalLink,
  deleteCustomer,
  issueCustomerToken,
  listCustomers,
  listCustomerTokens,
  revokeCustomerToken,
  showCustomer,
} from '@app/webhooks';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { asProblems } from '../webhook-endpoints/webhook-problems';

/** PORTAL_PUBLIC_URL: where the portal links lead. */
export const PORTAL_PUBLIC_URL = Symbol('PORTAL_PUBLIC_URL');

/**
 * /admin/customers: each route calls one use case of libs/webhooks (the CLI calls the same ones); their refusals
 * become 400, 404 or 409 answers naming what was wrong.
 */
@Injectable()
export class CustomersAdminUseCase {
  constructor(
    private readonly database: Database,
    @Inject(PORTAL_PUBLIC_URL) private readonly portalUrl: string,
  ) {}

  create(body: Record<string, unknown>, actor: string) {
    return this.run((dataSource) => createCustomer(dataSource, body, actor));
  }

  list() {
    return this.run((dataSource) => listCustomers(dataSource));
  }

  show(id: string) {
    return this.run((dataSource) => showCustomer(dataSource, id));
  }

  delete(id: string, actor: string) {
    return this.run((dataSource) => deleteCustomer(dataSource, id, actor));
  }

  issueToken(id: string, body: Record<string, unknown>, actor: string) {
    return this.run((dataSource) => issueCustomerToken(dataSource, id, body, actor));
  }

  tokens(id: string) {
    return this.run((dataSource) => listCustomerTokens(dataSource, id));
  }

  revokeToken(id: string, name: string, actor: string) {
    return this.run((dataSource) => revokeCustomerToken(dataSource, id, name, actor));
  }

  portalLink(id: string, body: Record<string, unknown>, actor: string) {
    return this.run((dataSource) => createPortalLink(dataSource, id, body, this.portalUrl, actor));
  }

  private async run<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> {
    const dataSource = await this.database.connection();
    return asProblems(() => work(dataSource));
  }
}
