import { SsrfGuard, UrlRefusedError } from '@app/ssrf-guard';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookEndpoints,
  showCustomer,
  showWebhookEndpoint,
  rotateWebhookSecret,
  ssrfPolicyOf,
  WebhookAdminContext,
  WebhookEndpointView,
  WebhookConflictError,
  WebhookInputError,
  WebhookNotFoundError,
} from '@app/webhooks';
import { CliContext } from '../cli-context';
import { CommandRefusedError, UsageError } from '../cli-errors';
import { formatFields, formatTable } from '../output/table';

export interface EndpointsOptions {
  json: boolean;
  as?: string;
  eventTypes: string[];
  description?: string;
  ordered: boolean;
  rate?: string;
  maxInFlight?: string;
  reason?: string;
  overlap?: string;
  /** `add`: the uid of the customer whose events it receives. */
  customer?: string;
}

/** The management context of the CLI: its database and the SSRF rules of its environment. */
export async function webhookAdmin(ctx: CliContext): Promise<WebhookAdminContext> {
  return { dataSource: await ctx.database(), guard: new SsrfGuard(ssrfPolicyOf(ctx.env)) };
}

/**
 * The management use cases' refusals as the CLI's: bad input and a refused URL are usage errors (exit 2), an unknown
 * endpoint or delivery and a state that does not allow the change are refusals (exit 1), each with the reason.
 */
export async function asCliErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UrlRefusedError) throw new UsageError(`the URL is refused: ${error.reason}`);
    if (error instanceof WebhookInputError) throw new UsageError(error.message);
    if (error instanceof WebhookNotFoundError || error instanceof WebhookConflictError)
      throw new CommandRefusedError(error.message);
    throw error;
  }
}

/** `hookrail endpoints add|list|show|disable|enable|rotate-secret|delete`. */
export async function endpointsCommand(
  ctx: CliContext,
  action: string | undefined,
  args: string[],
  options: EndpointsOptions,
): Promise<void> {
  const admin = await webhookAdmin(ctx);
  const actor = ctx.actor(options.as);
  const one = (name: string) => {
    if (args.length !== 1)
      throw new UsageError(`endpoints ${name} takes one ${name === 'add' ? 'URL' : 'endpoint id'}`);
    return args[0];
  };
  switch (action) {
    case 'add': {
      const customer = options.customer;
      const customerId =
        customer === undefined ? undefined : (await asCliErrors(() => showCustomer(admin.dataSource, customer))).id;
      const { endpoint, secret } = await asCliErrors(() =>
        createWebhookEndpoint(
          admin,
          {
            url: one('add'),
            eventTypes: options.eventTypes,
            ...(options.description !== undefined && { description: options.description }),
            ...(options.ordered && { ordered: true }),
            ...(options.rate !== undefined && { rateLimitPerSecond: integer(options.rate, 'rate') }),
            ...(options.maxInFlight !== undefined && { maxInFlight: integer(options.maxInFlight, 'max-in-flight') }),
            ...(customerId !== undefined && { customerId }),
          },
          actor,
        ),
      );
      return showWithSecret(ctx, endpoint, secret, options.json);
    }
    case 'list': {
      const endpoints = await listWebhookEndpoints(admin);
      if (options.json) return ctx.out(JSON.stringify(endpoints, null, 2));
      return ctx.out(
        formatTable(
          endpoints.map((endpoint) => ({
            ...endpoint,
            eventTypes: endpoint.eventTypes.join(','),
            pending: endpoint.queue.pending,
            failed: endpoint.failures.failed,
            secrets: endpoint.secrets.length,
          })),
          ['id', 'url', 'eventTypes', 'state', 'ordered', 'pending', 'failed', 'secrets', 'disabledReason'],
        ),
      );
    }
    case 'show':
      return show(ctx, await asCliErrors(() => showWebhookEndpoint(admin, one('show'))), options.json);
    case 'disable':
      return show(
        ctx,
        await asCliErrors(() =>
          disableWebhookEndpoint(admin, one('disable'), options.reason ? { reason: options.reason } : {}, actor),
        ),
        options.json,
      );
    case 'enable':
      return show(ctx, await asCliErrors(() => enableWebhookEndpoint(admin, one('enable'), actor)), options.json);
    case 'rotate-secret': {
      const overlapSeconds = options.overlap === undefined ? undefined : seconds(options.overlap);
      const { endpoint, secret } = await asCliErrors(() =>
        rotateWebhookSecret(admin, one('rotate-secret'), overlapSeconds === undefined ? {} : { overlapSeconds }, actor),
      );
      return showWithSecret(ctx, endpoint, secret, options.json);
    }
    case 'delete':
      return ctx.out(JSON.stringify(await asCliErrors(() => deleteWebhookEndpoint(admin, one('delete'), actor))));
    default:
      throw new UsageError(
        action
          ? `unknown endpoints command "${action}"`
          : 'endpoints needs a command: add, list, show, disable, enable, rotate-secret or delete',
      );
  }
}

function show(ctx: CliContext, endpoint: WebhookEndpointView, json: boolean): void {
  if (json) return ctx.out(JSON.stringify(endpoint, null, 2));
  const { secrets, queue, failures, eventTypes, ...fields } = endpoint;
  ctx.out(
    formatFields({
      ...fields,
      eventTypes: eventTypes.join(', '),
      pending: queue.pending,
      sending: queue.sending,
      failed: failures.lastFailedAt
        ? `${failures.failed} (the latest failed at ${failures.lastFailedAt.toISOString()})`
        : failures.failed,
      secrets: secrets
        .map((secret) => `${secret.id}${secret.expiresAt ? ` (expires ${secret.expiresAt.toISOString()})` : ''}`)
        .join(', '),
    }),
  );
}

function showWithSecret(ctx: CliContext, endpoint: WebhookEndpointView, secret: string, json: boolean): void {
  if (json) return ctx.out(JSON.stringify({ ...endpoint, secret }, null, 2));
  show(ctx, endpoint, false);
  ctx.out(`\nsigning secret (shown this once; give it to the receiver): ${secret}`);
}

function integer(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new UsageError(`--${name} must be an integer`);
  return parsed;
}

/** `3600`, `90s`, `30m`, `24h`, `2d` → seconds. */
function seconds(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value);
  if (!match) throw new UsageError(`--overlap "${value}" is neither seconds nor a duration like 30m, 24h or 2d`);
  return Number(match[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
}
