import {
  DeliverySummary,
  listDeliveries,
  replayDelivery,
  replayDeliveries,
  retryDeliveryNow,
  showDelivery,
} from '@app/webhooks';
import { CliContext } from '../cli-context';
import { UsageError } from '../cli-errors';
import { formatFields, formatTable } from '../output/table';
import { asCliErrors, webhookAdmin } from './endpoints.command';

export interface DeliveriesOptions {
  json: boolean;
  dryRun: boolean;
  as?: string;
  status?: string;
  type?: string;
  since?: string;
  until?: string;
  limit?: string;
}

const COLUMNS: Array<keyof DeliverySummary> = [
  'id',
  'eventId',
  'eventType',
  'state',
  'attempts',
  'lastStatus',
  'lastError',
  'nextAttemptAt',
  'createdAt',
];

/** `hookrail deliveries list|show|retry|replay <endpoint-id> …`: an endpoint's delivery log, retries and replays. */
export async function deliveriesCommand(
  ctx: CliContext,
  action: string | undefined,
  args: string[],
  options: DeliveriesOptions,
): Promise<void> {
  const admin = await webhookAdmin(ctx);
  const [endpointId, deliveryId, ...extra] = args;
  if (!endpointId || extra.length > 0) throw new UsageError(`deliveries ${action ?? ''} takes an endpoint id`.trim());
  switch (action) {
    case 'list': {
      const rows = await asCliErrors(() =>
        listDeliveries(admin, endpointId, {
          ...(options.status && { status: options.status }),
          ...(options.type && { eventType: options.type }),
          ...(options.since && { since: options.since }),
          ...(options.until && { until: options.until }),
          ...(options.limit && { limit: options.limit }),
        }),
      );
      return ctx.out(options.json ? JSON.stringify(rows, null, 2) : formatTable(rows, COLUMNS));
    }
    case 'show': {
      if (!deliveryId) throw new UsageError('deliveries show takes an endpoint id and a delivery id');
      const { attemptLog, payload, ...fields } = await asCliErrors(() => showDelivery(admin, endpointId, deliveryId));
      if (options.json) return ctx.out(JSON.stringify({ ...fields, payload, attemptLog }, null, 2));
      return ctx.out(
        [
          formatFields(fields),
          '',
          'payload:',
          payload,
          '',
          formatTable(attemptLog, ['attempt', 'startedAt', 'latencyMs', 'status', 'error', 'responseBody', 'worker']),
        ].join('\n'),
      );
    }
    case 'retry': {
      if (!deliveryId) throw new UsageError('deliveries retry takes an endpoint id and a delivery id');
      const actor = ctx.actor(options.as);
      const result = await asCliErrors(() => retryDeliveryNow(admin, endpointId, deliveryId, actor));
      return ctx.out(
        options.json
          ? JSON.stringify(result, null, 2)
          : `delivery ${result.id} is due now as ${actor}: the next free worker sends it (attempt ${result.attempts + 1}; the schedule goes on from there)`,
      );
    }
    case 'replay': {
      const actor = ctx.actor(options.as);
      if (deliveryId && options.since)
        throw new UsageError('deliveries replay takes a delivery id or --since, not both');
      if (!deliveryId && !options.since)
        throw new UsageError('deliveries replay needs a delivery id, or --since T for every delivery since T');
      const result = await asCliErrors(() =>
        deliveryId
          ? replayDelivery(admin, endpointId, deliveryId, actor)
          : replayDeliveries(
              admin,
              endpointId,
              {
                since: options.since,
                ...(options.until && { until: options.until }),
                ...(options.status && { status: options.status }),
                ...(options.limit && { limit: options.limit }),
                dryRun: options.dryRun,
              },
              actor,
            ),
      );
      if (options.json) return ctx.out(JSON.stringify(result, null, 2));
      if (result.dryRun) {
        ctx.out(`dry run: would send ${result.matched} delivery(ies) again; nothing changed`);
        if (result.candidates?.length) ctx.out(formatTable(result.candidates, COLUMNS));
        return;
      }
      return ctx.out(
        `queued ${result.replayed.length} of ${result.matched} delivery(ies) again as ${actor}${result.replayed.length ? `: ${result.replayed.join(', ')}` : ''}`,
      );
    }
    default:
      throw new UsageError(
        action ? `unknown deliveries command "${action}"` : 'deliveries needs a command: list, show, retry or replay',
      );
  }
}
