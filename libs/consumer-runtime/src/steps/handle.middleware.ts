import { Logger } from 'pino';
import { HandlerScope, MessageContext } from '../message-context';
import { HandledMessage } from './message';
import { Outcome } from './step';

/**
 * The handle step, last of an attempt's steps in either mode: runs the event's handler with a context that names
 * where the message came from (its logger carries eventId, topic, partition, offset and group). By batch the scope is
 * the run's transaction; by key, the handler's queued rows, committed afterwards with the event's dedupe row.
 */
export function handle(deps: { group: string; logger: Logger }) {
  return async (item: HandledMessage, attempt: number, scope: HandlerScope): Promise<Outcome> => {
    const ctx = new MessageContext(
      deps.group,
      item.topic,
      item.partition,
      item.message.offset,
      item.event.id,
      attempt,
      item.replayCount,
      scope,
      deps.logger,
    );
    await item.handler.handler(item.event, ctx);
    return 'applied';
  };
}
