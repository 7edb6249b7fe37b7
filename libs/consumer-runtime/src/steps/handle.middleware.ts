import { Logger } from 'pino';
import { MessageContext } from '../message-context';
import { Apply } from './step';

/**
 * The handle step, last in the transaction: runs the event's handler with a context that names where the message came
 * from (its logger carries eventId, topic, partition, offset and group).
 */
export function handle(deps: { group: string; logger: Logger }): Apply {
  return async (item, attempt, tx) => {
    const ctx = new MessageContext(
      deps.group,
      item.topic,
      item.partition,
      item.message.offset,
      item.event.id,
      attempt,
      item.replayCount,
      tx.manager,
      tx.events,
      tx.pending,
      deps.logger,
    );
    await item.handler.handler(item.event, ctx);
    return 'applied';
  };
}
