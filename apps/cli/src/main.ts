import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/config';
import { InvalidFilterError } from '@app/dead-letters';
import { errorMessage } from '@app/logger';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { CliContext, UsageError } from './cli-context';
import { deliveriesCommand } from './commands/deliveries.command';
import { dlqCommand } from './commands/dlq.command';
import { endpointsCommand } from './commands/endpoints.command';
import { jobsCommand } from './commands/jobs.command';
import { breakersCommand, lagCommand, outboxBacklogCommand } from './commands/ops.command';
import { traceCommand } from './commands/trace.command';
import { sagasCommand } from './commands/sagas.command';
import { sourcesCommand } from './commands/sources.command';
import { CliEnv } from './config/cli.env';

export const USAGE = `hookrail — operate a hookrail installation

Usage:
  hookrail dlq list    [filters] [--status S] [--limit N]      dead letters, newest first
  hookrail dlq show    <id>                                  one dead letter: error, stack, headers, payload
  hookrail dlq replay  <id>... | filters | --all [--dry-run] [--limit N] [--rate N] [--as NAME]
                                                            send to <group>.replay (only that group consumes it)
  hookrail dlq purge   <id>... | filters | --all [--dry-run] [--limit N] [--as NAME] [--yes]
                                                            purging the head of a parked key replays the events
                                                            parked behind it, in order: it asks first (--yes: don't)
  hookrail dlq parked  [--group G] [--key K]                 parked keys: head dead letter, events waiting behind it
  hookrail dlq purge-key --group G --key K [--dry-run] [--yes]
                                                            the key's dead letters and parked events, in one go
  hookrail outbox backlog                                   rows not yet published to Kafka
  hookrail lag         [--group G]...                       consumer lag per group, topic and partition
  hookrail breakers    [--all]                               dependencies a group waits on: its breaker is open
  hookrail jobs                                             scheduled jobs: schedule, last run and success, overdue
                                                            (exits 1 when a job is overdue)
  hookrail jobs forget <name>                               drop a job that no process runs any more
  hookrail sources                                          senders with rejected deliveries kept: how many by reason
  hookrail sources rejections <name> [--limit N]            a sender's rejected deliveries, newest first (--json:
                                                            headers without secrets, redacted body prefix)
  hookrail trace       <event id | sender event id | aggregate id>
                                                            one event's whole trail: received, published, each
                                                            group, dead letters and replays (who), agent task

  hookrail endpoints add <url> --event-type T... [--description D] [--ordered] [--rate N] [--max-in-flight N]
                                                            an outbound webhook endpoint; prints its signing secret once
  hookrail endpoints list | show <id>                       endpoints, their state, queue and secrets (never the values)
  hookrail endpoints disable <id> [--reason R] | enable <id>
  hookrail endpoints rotate-secret <id> [--overlap 24h]     a new secret; the old ones keep signing for the overlap
  hookrail endpoints delete <id>
  hookrail deliveries list <endpoint-id> [--status S] [--type T] [--since T] [--until T] [--limit N]
  hookrail deliveries show <endpoint-id> <delivery-id>      one delivery: payload and every attempt
  hookrail deliveries replay <endpoint-id> <delivery-id> | --since T [--until T] [--dry-run]
                                                            send again (the webhook-id stays the event id)

  hookrail sagas list  [--state S] [--type T] [--key K] [--limit N]   sagas, failed first, with counts per state
  hookrail sagas show  <id>                                  one saga: state, step, failure, every transition
  hookrail sagas retry <id> [--as NAME]                      send a failed saga's compensation again

Filters: --group G  --type T  --error-class C  --key K  --event-id E  --since T  --until T
         (T: an ISO time or a duration back from now: 30m, 6h, 2d)
Options: --json (machine-readable output), --help
Replay and purge work on dead letters in status "dead"; each run is recorded in dead_letter_audit; endpoint changes
and delivery replays in operator_audit.
"dlq list" leaves parked events out (--status parked lists them) and shows the parked keys below the dead letters.

Environment: DATABASE_URL (default: database hookrail on 127.0.0.1, as npm start), KAFKA_BROKERS, KAFKA_NAMESPACE,
HOOKRAIL_OPERATOR (who you are in the audit), OUTBOUND_WEBHOOKS_ALLOW_HOSTS / _ALLOW_HTTP / _ALLOW_PORTS (the SSRF
rules an endpoint's URL is checked against). The database used is named on stderr.`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  'dry-run': { type: 'boolean', default: false },
  yes: { type: 'boolean', short: 'y', default: false },
  all: { type: 'boolean', default: false },
  limit: { type: 'string' },
  rate: { type: 'string' },
  as: { type: 'string' },
  group: { type: 'string', multiple: true },
  type: { type: 'string' },
  'error-class': { type: 'string' },
  key: { type: 'string' },
  'event-id': { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  status: { type: 'string' },
  'event-type': { type: 'string', multiple: true },
  description: { type: 'string' },
  ordered: { type: 'boolean', default: false },
  'max-in-flight': { type: 'string' },
  reason: { type: 'string' },
  overlap: { type: 'string' },
  state: { type: 'string' },
} as const;

/** Runs one command; returns the exit code (0 done, 1 failed, 2 usage error). */
export async function runCli(
  argv: string[],
  out: (text: string) => void,
  err: (text: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  ask: ((question: string) => Promise<boolean>) | undefined = terminalQuestion(),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    err(`hookrail: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, action, ...rest] = positionals;
  if (values.help || !command) {
    out(USAGE);
    return 0;
  }
  let ctx: CliContext | undefined;
  try {
    ctx = new CliContext(loadConfig(CliEnv, env), out, err, !env.DATABASE_URL, ask);
    if (command === 'dlq') {
      await dlqCommand(ctx, action, rest, {
        json: values.json,
        dryRun: values['dry-run'],
        all: values.all,
        yes: values.yes,
        limit: values.limit,
        rate: values.rate,
        as: values.as,
        group: values.group?.[0],
        type: values.type,
        errorClass: values['error-class'],
        key: values.key,
        eventId: values['event-id'],
        since: values.since,
        until: values.until,
        status: values.status,
      });
    } else if (command === 'endpoints') {
      await endpointsCommand(ctx, action, rest, {
        json: values.json,
        as: values.as,
        eventTypes: values['event-type'] ?? [],
        description: values.description,
        ordered: values.ordered,
        rate: values.rate,
        maxInFlight: values['max-in-flight'],
        reason: values.reason,
        overlap: values.overlap,
      });
    } else if (command === 'deliveries') {
      await deliveriesCommand(ctx, action, rest, {
        json: values.json,
        dryRun: values['dry-run'],
        as: values.as,
        status: values.status,
        type: values.type,
        since: values.since,
        until: values.until,
        limit: values.limit,
      });
    } else if (command === 'outbox' && action === 'backlog') {
      await outboxBacklogCommand(ctx, { json: values.json });
    } else if (command === 'sagas') {
      await sagasCommand(ctx, action, rest, {
        json: values.json,
        state: values.state,
        type: values.type,
        key: values.key,
        limit: values.limit,
        as: values.as,
      });
    } else if (command === 'sources') {
      await sourcesCommand(ctx, action, rest, { json: values.json, limit: values.limit });
    } else if (command === 'lag') {
      await lagCommand(ctx, { json: values.json, groups: values.group ?? [] });
    } else if (command === 'breakers') {
      await breakersCommand(ctx, { json: values.json, all: values.all });
    } else if (command === 'jobs') {
      return await jobsCommand(ctx, action, rest, { json: values.json });
    } else if (command === 'trace') {
      await traceCommand(
        ctx,
        [action, ...rest].filter((ref) => ref !== undefined),
        { json: values.json },
      );
    } else {
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidFilterError || error instanceof ConfigError) {
      err(`hookrail: ${error.message}`);
      return 2;
    }
    err(`hookrail: failed: ${errorMessage(error)}`);
    return 1;
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}

/** A yes/no question on the terminal, when there is one (stdin and stderr both a TTY). */
function terminalQuestion(): ((question: string) => Promise<boolean>) | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return async (question) => {
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return /^y(es)?$/i.test((await prompt.question(question)).trim());
    } finally {
      prompt.close();
    }
  };
}

if (require.main === module) {
  runCli(
    process.argv.slice(2),
    (text) => process.stdout.write(`${text}\n`),
    (text) => process.stderr.write(`${text}\n`),
  ).then((code) => process.exit(code));
}
