import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { OPTIONS } from './cli-options';

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
  hookrail lag         [--group G]... [--partitions]        consumer lag per group and topic (per partition)
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
                       [--customer UID]                     an outbound webhook endpoint; prints its signing secret once
                                                            (--customer: it receives that customer's events only)
  hookrail endpoints list | show <id>                       endpoints, their state, queue and secrets (never the values)
  hookrail endpoints disable <id> [--reason R] | enable <id>
  hookrail endpoints rotate-secret <id> [--overlap 24h]     a new secret; the old ones keep signing for the overlap
  hookrail endpoints delete <id>
  hookrail deliveries list <endpoint-id> [--status S] [--type T] [--since T] [--until T] [--limit N]
  hookrail deliveries show <endpoint-id> <delivery-id>      one delivery: payload and every attempt
  hookrail deliveries retry <endpoint-id> <delivery-id>     a pending delivery now, not at its next attempt
  hookrail deliveries replay <endpoint-id> <delivery-id> | --since T [--until T] [--status S] [--dry-run]
                                                            send again (the webhook-id stays the event id); --since:
                                                            every delivery since T, or only --status delivered|failed

  hookrail customers add <uid> --name N                     a customer of outbound webhooks (uid: its id in events)
  hookrail customers list                                   customers and how many endpoints each has
  hookrail customers token <uid> --name N [--expires 30d]   a customer API token, printed this once (default 90 days)
  hookrail customers portal-link <uid>                      a link that opens the portal once, for 15 minutes

  hookrail sagas list  [--state S] [--type T] [--key K] [--limit N]   sagas, failed first, with counts per state
  hookrail sagas show  <id>                                  one saga: state, step, failure, every transition
  hookrail sagas retry <id> [--as NAME]                      send a failed saga's compensation again
  hookrail sagas cancel <id> [--reason R] [--as NAME]        cancel a running saga: what it did is undone

  hookrail tokens create <name> --role viewer|operator|admin|status [--groups G,G] [--sources S,S] [--expires E]
                                                            an operator API token, printed this once (E: 30d, 12h or
                                                            an ISO time; --groups: only those consumer groups;
                                                            --sources: the sources a status token reads)
  hookrail tokens list                                      tokens: role, groups, sources, created, expires, state
  hookrail tokens revoke <name> [--as NAME]                 refused from the next request on

Filters: --group G  --type T  --error-class C  --key K  --event-id E  --since T  --until T
         (T: an ISO time or a duration back from now: 30m, 6h, 2d)
Options: --json (machine-readable output), --help
Replay and purge work on dead letters in status "dead". Every change an operator makes (replays, purges, endpoint
changes, customers, their tokens and links, delivery replays, saga retries and cancels, tokens created and revoked) is recorded in operator_audit.
"dlq list" leaves parked events out (--status parked lists them) and shows the parked keys below the dead letters.

Environment: DATABASE_URL (default: database hookrail on 127.0.0.1, as npm start), KAFKA_BROKERS, KAFKA_NAMESPACE,
HOOKRAIL_OPERATOR (who you are in the audit), OUTBOUND_WEBHOOKS_ALLOW_HOSTS / _ALLOW_HTTP / _ALLOW_PORTS (the SSRF
rules an endpoint's URL is checked against). The database used is named on stderr.

Exit status: 0 done; 1 failed (nothing with that id, a state that refuses the change, Postgres or Kafka not
answering: the message names DATABASE_URL's host or KAFKA_BROKERS; "jobs": a job is overdue); 2 usage or
configuration error (an unknown command or option, a bad value, a DATABASE_URL naming a database that does not exist).`;

/** Runs one command; returns the exit code (0 done, 1 failed, 2 usage or configuration error). */
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
  // Everything else loads only now: `--help` answers without the database, Kafka or Nest libraries.
  const { runCommand } = await import('./run-command');
  return runCommand({ command, action, rest, values }, out, err, env, ask);
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
