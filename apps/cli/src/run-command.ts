import 'reflect-metadata';
import { ConfigError, developmentEnvFile, findRepoRoot, loadConfig, withDevelopmentEnv } from '@app/config';
import { DEFAULT_DATABASE_URL } from '@app/db/light';
import { errorMessage } from '@app/logger/light';
import { CliContext } from './cli-context';
import { CommandRefusedError, UnreachableError, UsageError } from './cli-errors';
import { CliEnv } from './config/cli.env';
import { ParsedValues } from './cli-options';

/** A command line parsed by `runCli`: the command, its action, the rest of the positionals and the options. */
export interface ParsedCommand {
  command: string;
  action?: string;
  rest: string[];
  values: ParsedValues;
}

/**
 * Runs one parsed command; returns the exit code: 0 done, 1 failed (nothing with that id, a state that refuses it, a
 * dependency that does not answer, anything unexpected), 2 usage or configuration error (retrying as is cannot help).
 * Each command's module is loaded when it runs, so that a command loads only the libraries it uses.
 */
export async function runCommand(
  { command, action, rest, values }: ParsedCommand,
  out: (text: string) => void,
  err: (text: string) => void,
  env: NodeJS.ProcessEnv,
  ask: ((question: string) => Promise<boolean>) | undefined,
): Promise<number> {
  const positionals = [command, action, ...rest].filter((word) => word !== undefined);
  let ctx: CliContext | undefined;
  try {
    // On npm start's installation, the CLI works under the same outbound-webhook allowances (its profile).
    const settings = withDevelopmentEnv(env, developmentEnvFile(env, findRepoRoot()), DEFAULT_DATABASE_URL);
    ctx = new CliContext(loadConfig(CliEnv, settings), out, err, !env.DATABASE_URL, ask);
    if (command === 'dlq') {
      await (
        await import('./commands/dlq.command')
      ).dlqCommand(ctx, action, rest, {
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
      await (
        await import('./commands/endpoints.command')
      ).endpointsCommand(ctx, action, rest, {
        json: values.json,
        as: values.as,
        eventTypes: values['event-type'] ?? [],
        description: values.description,
        ordered: values.ordered,
        rate: values.rate,
        maxInFlight: values['max-in-flight'],
        reason: values.reason,
        overlap: values.overlap,
        customer: values.customer,
      });
    } else if (command === 'customers') {
      await (
        await import('./commands/customers.command')
      ).customersCommand(ctx, action, rest, {
        json: values.json,
        as: values.as,
        name: values.name,
        expires: values.expires,
      });
    } else if (command === 'deliveries') {
      await (
        await import('./commands/deliveries.command')
      ).deliveriesCommand(ctx, action, rest, {
        json: values.json,
        dryRun: values['dry-run'],
        as: values.as,
        status: values.status,
        type: values.type,
        since: values.since,
        until: values.until,
        limit: values.limit,
      });
    } else if (command === 'tokens') {
      await (
        await import('./commands/tokens.command')
      ).tokensCommand(ctx, action, rest, {
        json: values.json,
        as: values.as,
        role: values.role,
        groups: values.groups,
        sources: values.sources,
        expires: values.expires,
      });
    } else if (command === 'outbox' && action === 'backlog') {
      await (await import('./commands/ops.command')).outboxBacklogCommand(ctx, { json: values.json });
    } else if (command === 'sagas') {
      await (
        await import('./commands/sagas.command')
      ).sagasCommand(ctx, action, rest, {
        json: values.json,
        state: values.state,
        type: values.type,
        key: values.key,
        limit: values.limit,
        as: values.as,
        reason: values.reason,
      });
    } else if (command === 'sources') {
      await (
        await import('./commands/sources.command')
      ).sourcesCommand(ctx, action, rest, { json: values.json, limit: values.limit });
    } else if (command === 'lag') {
      await (
        await import('./commands/lag.command')
      ).lagCommand(ctx, { json: values.json, groups: values.group ?? [], partitions: values.partitions });
    } else if (command === 'breakers') {
      await (await import('./commands/ops.command')).breakersCommand(ctx, { json: values.json, all: values.all });
    } else if (command === 'jobs') {
      return await (await import('./commands/jobs.command')).jobsCommand(ctx, action, rest, { json: values.json });
    } else if (command === 'trace') {
      await (
        await import('./commands/trace.command')
      ).traceCommand(
        ctx,
        [action, ...rest].filter((ref) => ref !== undefined),
        { json: values.json },
      );
    } else {
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
    }
    return 0;
  } catch (error) {
    // A bad filter of the dead-letter commands (InvalidFilterError), known by name: loading @app/dead-letters here
    // would cost every other command a third of its start.
    const badFilter = error instanceof Error && error.name === 'InvalidFilterError';
    if (error instanceof UsageError || badFilter || error instanceof ConfigError) {
      err(`hookrail: ${error.message}`);
      return 2;
    }
    if (error instanceof CommandRefusedError || error instanceof UnreachableError) {
      err(`hookrail: ${error.message}`);
      return 1;
    }
    err(`hookrail: failed: ${errorMessage(error)}`);
    return 1;
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}
