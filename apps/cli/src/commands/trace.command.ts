import { EventTrail, findTrails } from '@app/trail';
import { CliContext } from '../cli-context';
import { CommandRefusedError, UsageError } from '../cli-errors';

/**
 * `hookrail trace <ref>`: the whole trail of the event(s) an event id, a sender's event id or an aggregate id names:
 * received, queued and published, each group's processing, dead letters with their replays and who ran them, the
 * agent's task, the saga it started and its outbound deliveries with every attempt. One line per step, oldest first.
 */
export async function traceCommand(ctx: CliContext, refs: string[], options: { json: boolean }): Promise<void> {
  if (refs.length !== 1) throw new UsageError('trace takes one event id, sender event id or aggregate id');
  const answer = await findTrails(refs[0], { db: await ctx.database(), kafkaAdmin: () => ctx.kafkaAdmin() });
  if (answer.events.length === 0)
    throw new CommandRefusedError(`no event with id, sender event id or aggregate id "${refs[0]}"`);
  if (options.json) return ctx.out(JSON.stringify(answer, null, 2));
  ctx.out(answer.events.map(describe).join('\n\n'));
}

const MARK = { ok: ' ', info: ' ', warn: '!', error: 'x' } as const;

function describe(event: EventTrail): string {
  const header = event.receivedAt
    ? `event ${event.id}  ${event.type}  from ${event.source}  aggregate ${event.aggregateId}  sender id ${event.senderEventId}`
    : `event ${event.id}  (written by a service, not received)`;
  const width = Math.max(...event.trail.map((step) => step.step.length));
  const lines = event.trail.map(
    (step) =>
      `${MARK[step.level]} ${step.at.replace(/\.(\d{3})Z$/, '.$1Z')}  ${step.step.padEnd(width)}  ${step.summary}` +
      (step.deadLetterId && step.step === 'dead-lettered' ? `  [hookrail dlq replay ${step.deadLetterId}]` : ''),
  );
  return [header, ...lines].join('\n');
}
