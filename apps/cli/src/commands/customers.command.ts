import { createCustomer, createPortalLink, issueCustomerToken, listCustomers } from '@app/webhooks';
import { CliContext } from '../cli-context';
import { UsageError } from '../cli-errors';
import { formatTable } from '../output/table';
import { asCliErrors } from './endpoints.command';

export interface CustomersOptions {
  json: boolean;
  as?: string;
  name?: string;
  /** `30d`, `12h` or an ISO time. */
  expires?: string;
}

/** `hookrail customers add|list|token|portal-link`: customers of outbound webhooks, their tokens and portal links. */
export async function customersCommand(
  ctx: CliContext,
  action: string | undefined,
  args: string[],
  options: CustomersOptions,
): Promise<void> {
  const uid = () => {
    if (args.length !== 1) throw new UsageError(`customers ${action} takes one customer uid`);
    return args[0];
  };
  const name = () => {
    if (options.name === undefined) throw new UsageError(`customers ${action} needs --name`);
    return options.name;
  };
  const actor = ctx.actor(options.as);
  switch (action) {
    case 'add': {
      const body = { uid: uid(), name: name() };
      const customer = await asCliErrors(async () => createCustomer(await ctx.database(), body, actor));
      return ctx.out(options.json ? JSON.stringify(customer, null, 2) : `customer ${customer.uid} (${customer.id})`);
    }
    case 'list': {
      const customers = await listCustomers(await ctx.database());
      if (options.json) return ctx.out(JSON.stringify(customers, null, 2));
      return ctx.out(formatTable(customers, ['uid', 'name', 'endpoints', 'id']));
    }
    case 'token': {
      const body = { name: name(), ...(options.expires !== undefined && { expires: options.expires }) };
      const issued = await asCliErrors(async () => issueCustomerToken(await ctx.database(), uid(), body, actor));
      if (options.json) return ctx.out(JSON.stringify(issued, null, 2));
      return ctx.out(
        `${issued.token}\n\ncustomer API token "${issued.name}", expires ${issued.expiresAt.toISOString()}; ` +
          'shown only once: give it to the customer now',
      );
    }
    case 'portal-link': {
      const link = await asCliErrors(async () =>
        createPortalLink(await ctx.database(), uid(), {}, ctx.env.PORTAL_PUBLIC_URL, actor),
      );
      if (options.json) return ctx.out(JSON.stringify(link, null, 2));
      return ctx.out(`${link.url}\n\nopens the portal once, until ${link.expiresAt.toISOString()}`);
    }
    default:
      throw new UsageError(
        action ? `unknown customers command "${action}"` : 'customers needs a command: add, list, token or portal-link',
      );
  }
}
