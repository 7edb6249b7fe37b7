import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/config';
import { InvalidFilterError } from '@app/dead-letters';
import { errorMessage } from '@app/logger';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { CliContext, UsageError } from './cli-context';
import { dlqCommand } from './commands/dlq.command';
import { breakersCommand, lagCommand, outboxBacklogCommand } from './commands/ops.command';
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

Filters: --group G  --type T  --error-class C  --key K  --event-id E  --since T  --until T
         (T: an ISO time or a duration back from now: 30m, 6h, 2d)
Options: --json (machine-readable output), --help
Replay and purge work on dead letters in status "dead"; each run is recorded in dead_letter_audit.
"dlq list" leaves parked events out (--status parked lists them) and shows the parked keys below the dead letters.

Environment: DATABASE_URL, KAFKA_BROKERS, KAFKA_NAMESPACE, HOOKRAIL_OPERATOR (who you are in the audit).`;

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
    ctx = new CliContext(loadConfig(CliEnv, env), out, ask);
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
    } else if (command === 'outbox' && action === 'backlog') {
      await outboxBacklogCommand(ctx, { json: values.json });
    } else if (command === 'lag') {
      await lagCommand(ctx, { json: values.json, groups: values.group ?? [] });
    } else if (command === 'breakers') {
      await breakersCommand(ctx, { json: values.json, all: values.all });
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
